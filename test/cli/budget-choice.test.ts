import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { budgetCandidate } from '../../src/stages/budget.js';
import { isDue } from '../../src/stages/due.js';
import { pick } from '../../src/domain/schedule/pick.js';
import { LevelStore } from '../../src/store/level/store.js';
import type { UrlRecord } from '../../src/store/model/types.js';
import { mulberry32 } from '../../bench/lib/prng.js';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Which URLs a budget chooses, and in what order they come out, over a store of thousands
// of URLs: what `revisit due --budget` lists and a budgeted sweep requests must not move
// when the budget changes how it holds its candidates (bench/BUDGET.md, issue 39).

const DAY = 86_400_000;
const NOW = Date.parse('2030-06-01T00:00:00Z');
const VERIFY = 30 * DAY;

/**
 * `count` records over `origins`, seeded: checked over the last 30 days, a few checks
 * apart, some with a stored rate and some not, verified up to 70 days ago (some a whole
 * period past their bound: the `verify` tier), one in ten not due yet, one in twenty a
 * 404, and pairs that tie on value (the same rate and last check).
 */
function records(origins: string[], count: number, seed: number): Array<[string, UrlRecord]> {
	const random = mulberry32(seed);
	const out: Array<[string, UrlRecord]> = [];
	for (let i = 0; i < count; i++) {
		const url = `${origins[i % origins.length]}/p/${i}`;
		const twin = i % 50 === 1 ? out[i - 1]![1] : undefined;
		const lastChecked = twin?.lastChecked ?? Math.round(NOW - random() * 30 * DAY);
		const checks =
			twin?.checks ?? Array.from({ length: 1 + Math.floor(random() * 5) }, () => Math.round((1 + random() * 6) * 1440) * (random() < 0.25 ? -1 : 1));
		const record: UrlRecord = {
			v: 1,
			status: i % 20 === 7 ? 404 : 200,
			etag: `"p${i}"`,
			lastChecked,
			checks,
			verifiedAt: Math.min(lastChecked, Math.round(NOW - random() * 70 * DAY)),
		};
		if (twin?.rate !== undefined || (!twin && random() < 0.5)) record.rate = twin?.rate ?? Math.round(random() * 1000) / 1000;
		if (i % 10 === 3) record.nextDue = NOW + DAY;
		out.push([url, record]);
	}
	return out;
}

async function writeStore(dir: string, entries: Array<[string, UrlRecord]>): Promise<void> {
	const store = await LevelStore.open(dir);
	try {
		await store.batch(entries.map(([key, value]) => ({ type: 'put' as const, key, value })));
	} finally {
		await store.close();
	}
}

/** What a budget chooses by pick() over every due URL in `order`, new URLs first while the budget lasts: in that order. */
function oracle(order: string[], stored: Map<string, UrlRecord>, options: { budget: number; hostBudget?: number }): string[] {
	const origin = (url: string) => new URL(url).origin;
	const used = new Map<string, number>();
	let left = options.budget;
	const taken = new Set<string>();
	for (const url of order) {
		if (stored.has(url)) continue;
		const count = used.get(origin(url)) ?? 0;
		if (left > 0 && count < (options.hostBudget ?? Infinity)) {
			left--;
			used.set(origin(url), count + 1);
			taken.add(url);
		}
	}
	const known = order.filter((url) => stored.has(url) && isDue(stored.get(url)!, undefined, NOW));
	const chosen = pick(
		known.map((url) => budgetCandidate(stored.get(url)!, origin(url), {}, VERIFY, NOW)),
		{ budget: left, hostBudget: options.hostBudget, used },
	);
	known.forEach((url, i) => chosen[i] && taken.add(url));
	return order.filter((url) => taken.has(url));
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('revisit due --budget: which URLs, in which order', () => {
	let store: { dir: string; cleanup(): Promise<void> };
	// Hosts that are never asked (due reads the store only): the same URLs, so the same output, every run.
	const entries = records(['http://a.test', 'http://b.test', 'http://c.test'], 3000, 39);
	const stored = new Map(entries);
	const keyOrder = entries.map(([url]) => url).sort();
	beforeEach(async () => {
		store = await tempDir();
		await writeStore(store.dir, entries);
	});
	afterEach(() => store.cleanup());
	const due = (args: string[]) => runCli(['due', '--store', store.dir, '--now', String(NOW), ...args]);

	it('lists what pick() chooses, in store order, and the rest with --later', async () => {
		for (const budget of [1, 40, 700]) {
			const chosen = (await due(['--budget', String(budget)])).stdout.split('\n').filter(Boolean);
			expect(chosen).toEqual(oracle(keyOrder, stored, { budget }));
			const later = (await due(['--budget', String(budget), '--later'])).stdout.split('\n').filter(Boolean);
			const dueUrls = keyOrder.filter((url) => isDue(stored.get(url)!, undefined, NOW));
			// Those left for later come as the budget lets them go, not in store order.
			expect([...later].sort()).toEqual(dueUrls.filter((url) => !chosen.includes(url)));
		}
		const perHost = (await due(['--budget', '500', '--host-budget', '60'])).stdout.split('\n').filter(Boolean);
		expect(perHost).toEqual(oracle(keyOrder, stored, { budget: 500, hostBudget: 60 }));
		expect(perHost).toHaveLength(180);
		const hostOnly = (await due(['--host-budget', '25'])).stdout.split('\n').filter(Boolean);
		expect(hostOnly).toEqual(oracle(keyOrder, stored, { budget: Infinity, hostBudget: 25 }));
	});

	it('prints each URL with how it ranked, as it was decided', async () => {
		const json = ndjson((await due(['--budget', '300', '--json'])).stdout);
		const chosen = oracle(keyOrder, stored, { budget: 300 });
		expect(json.filter((entry) => !entry.later).map((entry) => entry.url)).toEqual(chosen);
		expect(json.filter((entry) => entry.tier === 'verify').length).toBeGreaterThan(0);
		for (const entry of json) {
			const record = stored.get(entry.url as string)!;
			const candidate = budgetCandidate(record, new URL(entry.url as string).origin, {}, VERIFY, NOW);
			expect(entry).toEqual({
				url: entry.url,
				rate: candidate.rate,
				lastChecked: new Date(record.lastChecked).toISOString(),
				tier: candidate.tier,
				value: Number.isFinite(candidate.value) ? Number(candidate.value.toPrecision(4)) : null,
				later: entry.later,
			});
		}
		// The whole output, the order in which the budget let URLs go included, as the build before issue 39's
		// compact budget printed it (the same store and flags; bench/BUDGET.md says how it was checked).
		const digests = [
			sha256((await due(['--budget', '300', '--json'])).stdout),
			sha256((await due(['--budget', '500', '--host-budget', '60', '--json'])).stdout),
		];
		expect(digests).toEqual(GOLDEN_JSON);
	});
});

describe('revisit sweep --budget: which URLs it checks, in which order', () => {
	let a: TestServer;
	let b: TestServer;
	let store: { dir: string; cleanup(): Promise<void> };
	const handler = (
		req: { url?: string; headers: Record<string, string | string[] | undefined> },
		res: { writeHead(status: number, headers?: Record<string, string>): { end(body?: string): void } },
	) => {
		const match = /^\/p\/(\d+)$/.exec(req.url ?? '');
		if (!match) return void res.writeHead(404).end();
		const etag = `"p${match[1]}"`;
		if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
		res.writeHead(200, { etag }).end(`page ${match[1]}`);
	};
	beforeEach(async () => {
		a = await startServer(handler);
		b = await startServer(handler);
		store = await tempDir();
	});
	afterEach(async () => {
		await a.close();
		await b.close();
		await store.cleanup();
	});

	it('requests what pick() chooses, new URLs first, then the chosen in input order', async () => {
		const entries = records([a.origin, b.origin], 2000, 7);
		await writeStore(store.dir, entries);
		const stored = new Map(entries);
		// The input: every stored URL and 30 new ones, shuffled (seeded).
		const random = mulberry32(11);
		const order = [...entries.map(([url]) => url), ...Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).url(`/p/${5000 + i}`))];
		for (let i = order.length - 1; i > 0; i--) {
			const j = Math.floor(random() * (i + 1));
			[order[i], order[j]] = [order[j]!, order[i]!];
		}
		const options = { budget: 150, hostBudget: 100 };
		const run = await runCli(
			[
				'sweep',
				'--store',
				store.dir,
				'-q',
				'--audit',
				'0',
				'--concurrency',
				'1',
				'--now',
				String(NOW),
				'--budget',
				String(options.budget),
				'--host-budget',
				String(options.hostBudget),
			],
			order.map((url) => `${url}\n`).join(''),
		);
		expect(run.status).toBe(0);
		const expected = oracle(order, stored, options);
		const fresh = expected.filter((url) => !stored.has(url));
		const known = expected.filter((url) => stored.has(url));
		expect(fresh).toHaveLength(30);
		for (const server of [a, b]) {
			const requested = server.requests.filter((request) => request.path !== '/robots.txt').map((request) => server.url(request.path));
			const mine = (urls: string[]) => urls.filter((url) => url.startsWith(`${server.origin}/`));
			expect(requested).toEqual([...mine(fresh), ...mine(known)]);
		}
	});
});

// sha256 of `revisit due --now 2030-06-01 --json` over the store above, printed by the build before issue 39's compact budget (694dc81).
// [--budget 300, --budget 500 --host-budget 60]
const GOLDEN_JSON = ['6e4aa5da4ea8fa8bafcb73400273a56c6eb6fa99b48f0aa8f7ab7554db513f25', '17feb14e95f1c94584aba765c309fae801afc0833b28c711a534430432ec0e0e'];
