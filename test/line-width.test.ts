import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// No line of code past the formatter's width. Biome breaks what it can at 160 columns
// (biome.jsonc), but leaves long strings, templates, comments and regular expressions
// as written: those are broken by hand (`'a' +` `'b'`, a comment in more lines), and this
// test keeps them so. Columns are counted as Biome counts them: a tab is 2.
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WIDTH = 160;
const FOLDERS = ['src', 'test', 'bench', 'scripts'];
const CODE = /\.(?:ts|js|mjs|cjs)$/;

/** Lines allowed past the width, each with why: `file` from the root, `starts` the line's text without its indent. */
const EXCEPTIONS: { file: string; starts: string; why: string }[] = [];

/** Every code file under `dir`, skipping git-ignored scratch folders (`bench/.tmp`) and node_modules. */
async function codeFiles(dir: string): Promise<string[]> {
	const entries = await readdir(dir, { withFileTypes: true });
	const nested = await Promise.all(
		entries.map((entry) => {
			if (entry.name.startsWith('.') || entry.name === 'node_modules') return [];
			const full = path.join(dir, entry.name);
			return entry.isDirectory() ? codeFiles(full) : CODE.test(entry.name) ? [full] : [];
		}),
	);
	return nested.flat();
}

const columns = (line: string): number => [...line.replaceAll('\t', '  ')].length;

describe('line width', () => {
	it(`no line of src/, test/, bench/ or scripts/ is wider than ${WIDTH} columns`, async () => {
		const files = (await Promise.all(FOLDERS.map((folder) => codeFiles(path.join(ROOT, folder))))).flat();
		expect(files.length).toBeGreaterThan(400);
		const wide: string[] = [];
		for (const file of files) {
			const name = path.relative(ROOT, file).split(path.sep).join('/');
			const lines = (await readFile(file, 'utf8')).split('\n');
			lines.forEach((line, i) => {
				if (columns(line) <= WIDTH) return;
				if (EXCEPTIONS.some((allowed) => allowed.file === name && line.trimStart().startsWith(allowed.starts))) return;
				wide.push(`${name}:${i + 1}: ${columns(line)} columns`);
			});
		}
		expect(wide, 'break these lines by hand (a string into concatenated pieces, a comment into more lines)').toEqual([]);
	});
});
