import { afterAll, beforeAll, expect, it } from 'vitest';
import { fleetKeys } from '../../../../src/net/transports/fleet/keys.js';
import { openFleetLink, type FleetLink } from '../../../../src/net/transports/fleet/link.js';
import { createPermits } from '../../../../src/net/transports/fleet/permits.js';
import { parseRedisUrl } from '../../../../src/store/redis/url.js';
import { describeRedis, startRedis, type TestRedis } from '../../../helpers/redis.js';

const ORIGIN = 'http://127.0.0.1:8080';
// Whether a take is granted within `ms`: a short wait to show one is held up, a long one
// (a loaded machine) to show one goes through.
const settled = (promise: Promise<void>, ms = 150) =>
	Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);
const granted = (promise: Promise<void>) => settled(promise, 3000);

describeRedis('per-host permits shared by the runs of a fleet', () => {
	let redis: TestRedis;
	let link: FleetLink;
	beforeAll(async () => {
		redis = await startRedis();
		link = await openFleetLink(parseRedisUrl(redis.url('p:')));
	});
	afterAll(async () => {
		await link?.close();
		await redis?.stop();
	});
	const keys = fleetKeys({ prefix: 'p:' });
	const permitsOf = (run: string, perHost: number, ttlMs?: number, idleMs = 50) =>
		createPermits(
			keys,
			run,
			{ perHost, ttlMs, idleMs },
			(_what, work) => work(link),
			(error) => {
				throw error;
			},
		);

	it('lets two runs hold no more than --per-host permits for one origin between them', async () => {
		const a = permitsOf('a', 2);
		const b = permitsOf('b', 2);
		try {
			await a.take('1', ORIGIN);
			await b.take('1', ORIGIN);
			const waiting = b.take('2', ORIGIN);
			expect(await settled(waiting)).toBe(false);
			// Another origin is not held up.
			await b.take('3', 'http://127.0.0.1:9090');
			// Given back, a permit stays with its run for a moment (idleMs), then goes to the fleet.
			a.give('1');
			expect(await granted(waiting)).toBe(true);
			expect([a.held, b.held]).toEqual([0, 3]);
			for (const id of ['1', '2', '3']) b.give(id);
			await expect.poll(() => b.held).toBe(0);
			expect(await redis.cli(['--scan', '--pattern', 'p:{fleet}:host:*'])).toBe('');
		} finally {
			await a.close();
			await b.close();
		}
	});

	it('grants a batch for one host up to the limit, and hands a permit given back to the next request without Redis', async () => {
		// A long idle time, so that the spare permit is still held when the test looks.
		const run = permitsOf('batch', 3, undefined, 10_000);
		try {
			const takes = ['1', '2', '3', '4', '5'].map((id) => run.take(id, ORIGIN));
			const first = await Promise.all(takes.map((take) => settled(take, 500)));
			expect(first.filter(Boolean)).toHaveLength(3);
			expect(run.held).toBe(3);
			for (const [i, done] of first.entries()) if (done) run.give(String(i + 1));
			expect(await Promise.all(takes.map(granted))).toEqual([true, true, true, true, true]);
			// Two in use, one spare until it idles back.
			expect(run.held).toBe(3);
			expect(await redis.cli(['ZCARD', 'p:{fleet}:host:' + ORIGIN])).toBe('3\n');
		} finally {
			for (const id of ['1', '2', '3', '4', '5']) run.give(id);
			await run.close();
		}
		// Closing gives every permit back at once.
		expect(await redis.cli(['--scan', '--pattern', 'p:{fleet}:host:*'])).toBe('');
	});

	it('renews what it holds, and what a dead run held lapses after the ttl', async () => {
		const dead = permitsOf('dead', 1, 300);
		const alive = permitsOf('alive', 1, 300);
		try {
			await dead.take('1', ORIGIN);
			// Renewed while its run lives: still held well past the ttl.
			await new Promise((resolve) => setTimeout(resolve, 700));
			const waiting = alive.take('1', ORIGIN);
			expect(await settled(waiting)).toBe(false);
			// The run dies (no give, no renewal): the permit lapses and the other run gets it.
			await dead.close(false);
			await expect(Promise.race([waiting.then(() => 'granted'), new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2_000))])).resolves.toBe(
				'granted',
			);
		} finally {
			alive.give('1');
			await alive.close();
		}
	});
});
