import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { LevelStore } from '../../src/store/level/store.js';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

// One host big enough that 200 edits are 20+ changes yet far from churn, and 2,900 are churn.
export const PAGES = 3000;
/** 200 pages, spread over the list. */
export const FEW = (i: number) => i % 15 === 0;
/** 2,900 pages: every 30th stays as it was. */
export const MOST = (i: number) => i % 30 !== 0;
/**
 * Wider than the defaults only to keep a sweep of 3,000 local URLs to a few seconds; and no
 * verification: each URL is verified at its own moment of a 30-day cycle (a hash of the URL,
 * whose port is new each run), so now and then one of the 3,000 fell due within a test and
 * its unchanged body was downloaded and written beside the edits (201 files for 200).
 */
export const LIMITS = ['--audit', '0', '--verify-every', 'off', '--concurrency', '16', '--per-host', '16'];

export interface ChurnSite {
	server: TestServer;
	/** A store in which every page is known with its ETag, so unchanged pages answer 304. */
	store: string;
	/** The URL list, one per line. */
	input(): string;
	/** Edits the pages `which` selects (a new body and ETag each); returns their URLs, sorted. */
	edit(which: (i: number) => boolean): string[];
	/** Fails unless each of `edited` still has the ETag from before its edit in the store: nothing was committed. */
	uncommitted(edited: string[]): Promise<void>;
	/** `revisit stats` shows the host blocked. */
	blocked(): Promise<boolean>;
	/** Unconditional GETs the server has seen: downloads by the fetch (the sweep always sends an ETag). */
	fetches(): number;
	close(): Promise<void>;
}

/**
 * A site of 3,000 small pages on 127.0.0.1 whose pages can be edited in memory (ETags,
 * 304s), and a store that has seen every page once.
 *
 * @example
 * const site = await startChurnSite();
 * const edited = site.edit(FEW);
 */
export async function startChurnSite(): Promise<ChurnSite> {
	const version = new Array<number>(PAGES).fill(0);
	let fetches = 0;
	const server = await startServer((req, res) => {
		const i = Number(req.url!.slice(2));
		const tag = `"${version[i]}"`;
		if (req.headers['if-none-match'] === undefined) fetches++;
		if (req.headers['if-none-match'] === tag) return void res.writeHead(304, { etag: tag }).end();
		res.writeHead(200, { etag: tag, 'content-type': 'text/plain' }).end(`page ${i} v${version[i]}`);
	});
	const urls = Array.from({ length: PAGES }, (_, i) => server.url(`/p${i}`));
	const input = () => `${urls.join('\n')}\n`;
	const store = await tempDir();
	expect((await runCli(['sweep', '--store', store.dir, '-q', ...LIMITS], input())).status).toBe(0);
	return {
		server,
		store: store.dir,
		input,
		edit(which) {
			for (let i = 0; i < PAGES; i++) if (which(i)) version[i]!++;
			return urls.filter((_, i) => which(i)).sort();
		},
		async uncommitted(edited) {
			const db = await LevelStore.open(store.dir);
			const records = await db.getMany(edited);
			await db.close();
			expect(records.map((record) => record?.etag)).toEqual(edited.map((url) => `"${version[urls.indexOf(url)]! - 1}"`));
		},
		async blocked() {
			return (JSON.parse((await runCli(['stats', '--store', store.dir, '--json'])).stdout) as { blocked: boolean }).blocked;
		},
		fetches: () => fetches,
		async close() {
			await server.close();
			await store.cleanup();
		},
	};
}

/** Bodies written under `dir` (not counting the index), and the URLs in its index, sorted. */
export async function written(dir: string): Promise<{ files: number; urls: string[] }> {
	const files = (await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])).filter(
		(entry) => entry.isFile() && entry.name !== 'index.ndjson',
	);
	const index = ndjson(await readFile(path.join(dir, 'index.ndjson'), 'utf8').catch(() => ''));
	return { files: files.length, urls: index.map((entry) => entry.url as string).sort() };
}

/** Output lines, sorted. */
export const lines = (text: string): string[] => text.split('\n').filter(Boolean).sort();

/**
 * Starts the site and a scratch folder before the suite's tests, and stops both after.
 *
 * @example
 * const fx = useChurnSite(); it('…', () => fx.site.edit(FEW));
 */
export function useChurnSite(): { site: ChurnSite; dir: string } {
	const fx = {} as { site: ChurnSite; dir: string };
	let work: { dir: string; cleanup(): Promise<void> };
	beforeAll(async () => {
		fx.site = await startChurnSite();
		work = await tempDir();
		fx.dir = work.dir;
	});
	afterAll(async () => {
		await fx.site.close();
		await work.cleanup();
	});
	return fx;
}
