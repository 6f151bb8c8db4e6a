import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The docs pages' links are checked in examples.test.ts. The code names pages too, outside
// any link: --help text, schema descriptions, comments, a test reading a page, the systemd
// unit's Documentation=. A page moved or renumbered must take those along.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where the code and its notes live; node_modules and dist are built from them. */
const PLACES = ['src', 'test', 'bench', 'config', 'scripts', 'demo', 'docs', '.ci', 'README.md', 'vitest.config.ts', 'package.json'];
const TEXT = /\.(ts|js|mjs|json|md|service|yml|yaml|sh)$|^run$/;
/** A path under docs/ to a page or a picture, as in `docs/12-scheduling.md` or `docs/internals/1-architecture.md`. */
const DOCS_PATH = /(?<![\w.-])docs\/((?:[\w-]+\/)*[\w.-]+\.(?:md|png))/g;

function files(place: string): string[] {
	const full = path.join(ROOT, place);
	if (!existsSync(full)) return [];
	if (!statSync(full).isDirectory()) return [place];
	return (
		readdirSync(full, { recursive: true, encoding: 'utf8' })
			.map((name) => path.join(place, name))
			// bench/.tmp holds other builds a bench checked out (git-ignored): their docs are theirs.
			.filter((file) => !file.split(path.sep).includes('node_modules') && !file.startsWith(path.join('bench', '.tmp')))
			.filter((file) => TEXT.test(path.basename(file)) && statSync(path.join(ROOT, file)).isFile())
	);
}

describe('docs paths named outside links', () => {
	it('name only docs pages that exist', () => {
		const missing: string[] = [];
		let named = 0;
		for (const file of PLACES.flatMap(files)) {
			const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
			lines.forEach((line, index) => {
				for (const [, page] of line.matchAll(DOCS_PATH)) {
					named++;
					if (!existsSync(path.join(ROOT, 'docs', page!))) missing.push(`${file}:${index + 1}: docs/${page}`);
				}
			});
		}
		// A guard against a pattern that finds nothing, which would pass vacuously.
		expect(named).toBeGreaterThanOrEqual(30);
		expect(missing).toEqual([]);
	});
});
