import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LevelStore } from '../../src/store/level/store.js';
import { runCli, spawnCli, tempDir } from '../helpers/cli.js';
import { startWatchOrigin, type WatchOrigin } from '../helpers/watch-origin.js';
import { waitFor } from '../helpers/wait-for.js';

const HOUR = 3_600_000;
const START = Date.parse('2030-01-01T00:00:00Z');
const QUIET = ['--robots', 'ignore', '--audit', '0', '--ndjson', '-q'];

/** The threshold's correction as the watch saved it in the store's schedule (log f). */
async function savedCorrection(dir: string): Promise<number> {
	const store = await LevelStore.open(dir);
	try {
		const saved = (await (await store.dueQueue({ at0: 0, wall0: Date.now(), scale: 0 })).saved('threshold')) as { logF: number } | undefined;
		expect(saved, 'a threshold saved in the schedule').toBeDefined();
		return saved!.logF;
	} finally {
		await store.close();
	}
}

describe('revisit watch spends the rate: pull-ahead (LevelDB store)', () => {
	let origin: WatchOrigin;
	let store: { dir: string; cleanup(): Promise<void> };
	const urls = (n: number) => Array.from({ length: n }, (_, i) => origin.url(`/p${i}`));
	beforeEach(async () => {
		store = await tempDir();
		origin = await startWatchOrigin(0);
	});
	afterEach(async () => {
		await origin?.close();
		await store.cleanup();
	});

	it('a slot with nothing due checks a URL ahead of its due time, no sooner than --min-interval after its last check', async () => {
		const watch = (from: number, hours: number) =>
			runCli(
				['watch', '--store', store.dir, '--rate', '3600/h', '--now', String(from), '--until', String(from + hours * HOUR), '--time-scale', '3600', ...QUIET],
				urls(5).join('\n'),
			);
		expect((await watch(START, 1)).status).toBe(0);
		expect(origin.hits).toHaveLength(5);
		// As a watch at a lower --rate leaves them: each next due a month on.
		const level = await LevelStore.open(store.dir);
		const queue = await level.dueQueue({ at0: START, wall0: Date.now(), scale: 0 });
		await queue.put(urls(5).map((url) => ({ url, origin: origin.url('/').slice(0, -1), due: START + 30 * 24 * HOUR, rate: 0.01 })));
		await level.close();

		// Six hours at 3,600 checks an hour: nothing is due, and every slot could check one of them.
		expect((await watch(START + HOUR, 6)).status).toBe(0);
		for (let i = 0; i < 5; i++) {
			// Checked ahead of its due time, every hour (the default --min-interval) at most: 6 in 6 hours, and not 0.
			// A check on the day of the URL's --verify-every (its phase is drawn from the URL, here
			// a random port's) adds a full download after its 304: checks are the conditional requests.
			const seen = origin.hits.filter((hit) => hit.path === `/p${i}`);
			const after = seen.filter((hit) => hit.headers['if-none-match'] !== undefined).length;
			const said = seen.map((hit) => `${hit.at - origin.hits[0]!.at} ms ${hit.headers['if-none-match'] ?? '-'}`).join(', ');
			expect(after, said).toBeGreaterThanOrEqual(4);
			expect(after, said).toBeLessThanOrEqual(6);
		}
	}, 90_000);

	it("the threshold's correction is kept in the store: a restart after kill -9 goes on from it", async () => {
		// 50 URLs at 3,600 checks an hour leave most of the rate unspent: the correction falls every hour of the schedule (an hour per second here).
		const scale = 3600;
		const args = (now: number, until?: number) => [
			'watch',
			'--store',
			store.dir,
			'--rate',
			'3600/h',
			'--now',
			String(now),
			'--time-scale',
			String(scale),
			...(until === undefined ? [] : ['--until', String(until)]),
			...QUIET,
		];
		const wall0 = Date.now();
		const first = spawnCli(args(START), urls(50).join('\n'));
		// 1,050 checks of 50 URLs, each checked once an hour at most (--min-interval): at least 20 hours of the schedule have passed.
		await waitFor(() => origin.hits.length >= 1050, '1,050 checks', 60_000);
		first.child.kill('SIGKILL');
		expect((await first.done).signal).toBe('SIGKILL');
		const killed = await savedCorrection(store.dir);
		// Its first step is -0.1 at most, each after -0.04 (threshold.ts): at least 6 steps.
		expect(killed).toBeLessThan(-0.28);

		// Four more hours of the schedule, 4 steps at most: from the saved correction it goes on down; started afresh it would end at -0.26 or above.
		const now = START + (Date.now() - wall0) * scale;
		const second = await runCli(args(now, now + 4 * HOUR), urls(50).join('\n'));
		expect(second.status).toBe(0);
		const resumed = await savedCorrection(store.dir);
		// Below where a fresh start could be: a loaded machine may hold a check late enough to
		// move the correction up a step meanwhile (it went from -0.86 to -0.79 beside a bench).
		expect(resumed).toBeLessThan(-0.26);
		expect(resumed).toBeGreaterThan(killed - 1);
	}, 120_000);
});
