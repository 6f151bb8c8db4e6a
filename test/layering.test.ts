import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The table of tiers lives in one place, docs/internals/1-architecture.md; this test reads it and
// holds every import under src/ to it.
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = path.join(ROOT, 'src');

async function sources(dir: string): Promise<string[]> {
	const entries = await readdir(dir, { withFileTypes: true });
	const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? sources(path.join(dir, entry.name)) : [path.join(dir, entry.name)])));
	return nested.flat().filter((file) => file.endsWith('.ts'));
}

/** Where a part of src/ sits: its tier, and its step inside the tier (0 for a tier without parts). */
interface Place {
	tier: number;
	step: number;
}

/**
 * Part name (`cli`, `index.ts`, `io/sinks`, `store/*.ts` for the files at the store's root)
 * to its place, from the architecture page's table of tiers.
 */
async function tierTable(): Promise<Map<string, Place>> {
	const page = await readFile(path.join(ROOT, 'docs/internals/1-architecture.md'), 'utf8');
	const places = new Map<string, Place>();
	for (const [, number, folder, parts] of page.matchAll(/^\| (\d+) \| `([^`]+)` \|([^|]*)\|/gm)) {
		const tier = Number(number);
		const steps = parts!.trim() ? parts!.split('›') : [];
		if (steps.length === 0) places.set(folder!, { tier, step: 0 });
		steps.forEach((names, step) => {
			for (const [, name] of names.matchAll(/`([^`]+)`/g)) places.set(`${folder}/${name}`, { tier, step });
		});
	}
	return places;
}

/**
 * The part of src/ a file belongs to: `index.ts` for a root file, the top folder for a tier
 * without parts, else the tier and the part (`io/sinks`), or `tier/*.ts` for a tier's root files.
 */
function partOf(relative: string, places: Map<string, Place>): string {
	const segments = relative.split(path.sep);
	if (segments.length === 1) return relative.replace(/\.js$/, '.ts');
	if (places.has(segments[0]!)) return segments[0]!;
	return segments.length === 2 ? `${segments[0]}/*.ts` : `${segments[0]}/${segments[1]}`;
}

/** Every relative specifier a file imports or re-exports, static or dynamic. */
function specifiers(text: string): string[] {
	return [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.[^']+)'/g)].map((match) => match[1]!);
}

/** Whether a part may import another: a lower tier, or a later step of its own tier. */
const mayImport = (from: Place, to: Place): boolean => from.tier < to.tier || (from.tier === to.tier && from.step < to.step);

describe('layering', () => {
	it('reads a table that places every part of src/, in at most twelve folders', async () => {
		const places = await tierTable();
		const parts = new Set((await sources(SRC)).map((file) => partOf(path.relative(SRC, file), places)));
		expect([...parts].filter((part) => !places.has(part)).sort()).toEqual([]);
		expect([...places.keys()].filter((part) => !parts.has(part)).sort()).toEqual([]);
		const folders = (await readdir(SRC, { withFileTypes: true })).filter((entry) => entry.isDirectory());
		expect(folders.length).toBeLessThanOrEqual(12);
	});

	it('no import points up or sideways: each goes to its own part, a lower tier or a later step of its tier', async () => {
		const places = await tierTable();
		const offenders: string[] = [];
		for (const file of await sources(SRC)) {
			const relative = path.relative(SRC, file);
			const from = partOf(relative, places);
			for (const specifier of specifiers(await readFile(file, 'utf8'))) {
				const to = partOf(path.relative(SRC, path.resolve(path.dirname(file), specifier)), places);
				if (to === from) continue;
				if (!mayImport(places.get(from)!, places.get(to)!)) offenders.push(`${relative} (${from}) imports ${specifier} (${to})`);
			}
		}
		expect(offenders).toEqual([]);
	});

	it("imports each store backend's driver in that backend's folder only", async () => {
		const drivers: Array<[RegExp, string[]]> = [
			[/(from\s+|import\()'(level|classic-level|memory-level)'/, [`store${path.sep}level${path.sep}`]],
			[/(from\s+|import\()'@redis\/client'/, [`store${path.sep}redis${path.sep}`, `net${path.sep}transports${path.sep}fleet${path.sep}`]],
		];
		const offenders: string[] = [];
		for (const file of await sources(SRC)) {
			const relative = path.relative(SRC, file);
			const text = await readFile(file, 'utf8');
			for (const [driver, homes] of drivers) if (driver.test(text) && !homes.some((home) => relative.startsWith(home))) offenders.push(relative);
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

	it('keeps the report in its own folder: no file of it left in src/outputs/history', async () => {
		const places = await tierTable();
		expect(places.get('io/report')!.tier).toBeLessThan(places.get('outputs/history')!.tier);
		const strays = (await sources(path.join(SRC, 'outputs', 'history'))).filter((file) => /report/.test(path.basename(file)));
		expect(strays.map((file) => path.relative(ROOT, file))).toEqual([]);
	});

	it('has no folder under src/ with a single file', async () => {
		const counts = new Map<string, number>();
		for (const file of await sources(SRC)) if (path.dirname(file) !== SRC) counts.set(path.dirname(file), (counts.get(path.dirname(file)) ?? 0) + 1);
		expect([...counts].filter(([, count]) => count < 2).map(([dir]) => path.relative(ROOT, dir))).toEqual([]);
	});
});
