import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The layer table lives in one place, docs/internals/1-architecture.md; this test reads it and
// holds every import under src/ to it.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = path.join(ROOT, 'src');

async function sources(dir: string): Promise<string[]> {
	const entries = await readdir(dir, { withFileTypes: true });
	const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? sources(path.join(dir, entry.name)) : [path.join(dir, entry.name)])));
	return nested.flat().filter((file) => file.endsWith('.ts'));
}

/** Folder (or root file) name to its layer number, from the architecture page's table. */
async function layerTable(): Promise<Map<string, number>> {
	const page = await readFile(path.join(ROOT, 'docs/internals/1-architecture.md'), 'utf8');
	const layers = new Map<string, number>();
	for (const [, number, cells] of page.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)) {
		for (const [, name] of cells!.matchAll(/`([^`]+)`/g)) layers.set(name!, Number(number));
	}
	return layers;
}

/** The part of src/ a file belongs to: its top folder, or its own name for a file at the root. */
const partOf = (relative: string): string => (relative.includes(path.sep) ? relative.split(path.sep)[0]! : relative.replace(/\.js$/, '.ts'));

/** Every relative specifier a file imports or re-exports, static or dynamic. */
function specifiers(text: string): string[] {
	return [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.[^']+)'/g)].map((match) => match[1]!);
}

describe('layering', () => {
	it('reads a table that places every folder and root file of src/', async () => {
		const layers = await layerTable();
		const parts = new Set((await sources(SRC)).map((file) => partOf(path.relative(SRC, file))));
		expect([...parts].filter((part) => !layers.has(part)).sort()).toEqual([]);
		expect([...layers.keys()].filter((part) => !parts.has(part)).sort()).toEqual([]);
	});

	it('no import points up or sideways: each goes to its own folder or a lower layer', async () => {
		const layers = await layerTable();
		const offenders: string[] = [];
		for (const file of await sources(SRC)) {
			const relative = path.relative(SRC, file);
			const from = partOf(relative);
			for (const specifier of specifiers(await readFile(file, 'utf8'))) {
				const to = partOf(path.relative(SRC, path.resolve(path.dirname(file), specifier)));
				if (to === from) continue;
				if (!(layers.get(from)! < layers.get(to)!)) offenders.push(`${relative} (layer ${layers.get(from)}) imports ${specifier} (layer ${layers.get(to)})`);
			}
		}
		expect(offenders).toEqual([]);
	});

	it('only src/cli imports yargs', async () => {
		const offenders: string[] = [];
		for (const file of await sources(SRC)) {
			const relative = path.relative(SRC, file);
			if (relative.startsWith(`cli${path.sep}`)) continue;
			if (/from\s+'yargs(\/[^']*)?'/.test(await readFile(file, 'utf8'))) offenders.push(relative);
		}
		expect(offenders).toEqual([]);
	});

	it('keeps the report in its own folder: no file of it left in src/history', async () => {
		const layers = await layerTable();
		expect(layers.get('report')).toBeLessThan(layers.get('history')!);
		const strays = (await sources(path.join(SRC, 'history'))).filter((file) => /report/.test(path.basename(file)));
		expect(strays.map((file) => path.relative(ROOT, file))).toEqual([]);
	});

	it('has no folder with a single file', async () => {
		const counts = new Map<string, number>();
		for (const file of await sources(SRC)) counts.set(path.dirname(file), (counts.get(path.dirname(file)) ?? 0) + 1);
		expect([...counts].filter(([, count]) => count < 2).map(([dir]) => path.relative(ROOT, dir))).toEqual([]);
	});
});
