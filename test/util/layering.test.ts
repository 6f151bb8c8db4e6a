import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

async function sources(dir: string): Promise<string[]> {
	const entries = await readdir(dir, { withFileTypes: true });
	const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? sources(path.join(dir, entry.name)) : [path.join(dir, entry.name)])));
	return nested.flat().filter((file) => file.endsWith('.ts'));
}

describe('layering', () => {
	it('nothing under src/ but src/cli imports src/cli: the CLI sits on top', async () => {
		const offenders: string[] = [];
		for (const file of await sources(SRC)) {
			const relative = path.relative(SRC, file);
			if (relative.startsWith(`cli${path.sep}`)) continue;
			const text = await readFile(file, 'utf8');
			for (const [, specifier] of text.matchAll(/from\s+'([^']+)'/g)) {
				const target = path.relative(SRC, path.resolve(path.dirname(file), specifier!));
				if (specifier!.startsWith('.') && (target === 'cli' || target.startsWith(`cli${path.sep}`))) offenders.push(`${relative} imports ${specifier}`);
			}
		}
		expect(offenders).toEqual([]);
	});
});
