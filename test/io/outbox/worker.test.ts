import { from, lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { enqueue } from '../../../src/io/outbox/enqueue.js';
import { outboxTargets } from '../../../src/io/outbox/targets.js';
import { startDeliveries, type Deliveries } from '../../../src/io/outbox/worker.js';
import { commit } from '../../../src/stages/commit.js';
import { MemoryStore } from '../../../src/store/level/memory.js';
import type { Delivery, ValidatorStore } from '../../../src/store/model/types.js';
import type { Task } from '../../../src/domain/task/types.js';
import { startHangingHttp, type HangingServer } from '../notify/hanging.js';
import { startReceiver } from '../notify/receiver.js';
import { waitFor } from '../../helpers/wait-for.js';

const HOUR = 3_600_000;
const FAST = { firstMs: 20, capMs: 100 };

/** A change of `url` as the stages leave it for the commit. */
const change = (url: string, line: number): Task => ({
	line,
	input: url,
	url,
	verdict: { url, changed: true, reason: 'new-body', status: 200 },
	next: { v: 1, status: 200, lastChecked: line },
});

const commitChanges = (store: ValidatorStore, tasks: Task[], targets: ReturnType<typeof outboxTargets>, deliveries?: Deliveries) =>
	lastValueFrom(from(tasks).pipe(enqueue(targets, { queued: (id) => deliveries?.queued(id) }), commit({}, store), toArray()));

const pending = async (store: ValidatorStore): Promise<Delivery[]> => {
	const found: Delivery[] = [];
	for await (const [, delivery] of store.deliveryEntries()) found.push(delivery);
	return found;
};

describe('the outbox: deliveries committed with their change, sent by the worker', () => {
	const closing: Array<() => Promise<unknown>> = [];
	afterEach(async () => {
		for (const close of closing.splice(0).reverse()) await close();
	});

	it('a change is committed with one delivery per target, in the batch of its record, and nothing is sent on the check path', async () => {
		const store = new MemoryStore();
		const targets = outboxTargets({
			notify: { urls: ['json://127.0.0.1:9/a', 'json://127.0.0.1:9/b'] },
			webhook: { url: 'http://127.0.0.1:9/hook', batch: 1 },
		});
		const done = await commitChanges(
			store,
			[
				change('https://a.example/', 1),
				{ line: 2, input: 'x', url: 'https://b.example/', verdict: { url: 'https://b.example/', changed: false, reason: '304' } },
			],
			targets,
		);
		expect(done).toHaveLength(2);
		expect((await store.getMany(['https://a.example/']))[0]).toMatchObject({ lastChecked: 1 });
		const stored = await pending(store);
		expect(stored.map((delivery) => delivery.shown).sort()).toEqual([
			'notify json://127.0.0.1:9/a',
			'notify json://127.0.0.1:9/b',
			'webhook http://127.0.0.1:9',
		]);
		expect(stored.find((delivery) => delivery.shown === 'webhook http://127.0.0.1:9')!.payload).toMatchObject({
			verdict: { url: 'https://a.example/', reason: 'new-body' },
		});
	});

	it(
		'a target that is down: named once on stderr, retried with backoff; ' + 'when it is back, every change is delivered once, in order, and it is named again',
		async () => {
			let down = true;
			const { server, received } = await startReceiver(() => [down ? 503 : 200]);
			closing.push(() => server.close());
			const store = new MemoryStore();
			const lines: string[] = [];
			const targets = outboxTargets({ notify: { urls: [`json://${server.origin.slice(7)}/hook`] } });
			const deliveries = startDeliveries(store, targets, { maxAgeMs: HOUR, backoff: FAST, diagnose: (line) => lines.push(line) });
			closing.push(() => deliveries.stop());
			await commitChanges(
				store,
				[1, 2, 3].map((n) => change(`https://a.example/${n}`, n)),
				targets,
				deliveries,
			);
			await waitFor(() => received.length >= 3, 'three failed attempts');
			expect(deliveries.status()[0]).toMatchObject({ pending: 3, failing: { problem: expect.stringContaining('answered 503') } });
			await commitChanges(store, [change('https://a.example/4', 4)], targets, deliveries);
			const failedAttempts = received.length;
			down = false;
			await waitFor(() => deliveries.status()[0]!.pending === 0, 'the backlog delivered');
			const delivered = received.slice(failedAttempts).map((request) => (request.body as { url: string }).url);
			expect(delivered).toEqual([1, 2, 3, 4].map((n) => `https://a.example/${n}`));
			expect(await pending(store)).toEqual([]);
			expect(lines).toHaveLength(2);
			expect(lines[0]).toMatch(
				/^notify json:\/\/127\.0\.0\.1:\d+\/hook: cannot deliver \(answered 503\); \d+ pending, retried with backoff, kept for 1h; checks go on$/,
			);
			expect(lines[1]).toMatch(/^notify json:\/\/127\.0\.0\.1:\d+\/hook: delivering again, after \d+ failed attempts over \d+ s$/);
			expect(deliveries.status()[0]).toMatchObject({ failing: undefined, delivered: 4 });
		},
	);

	it('a target that accepts and never answers delays no other target, and stop() ends its attempt at once', async () => {
		const hang: HangingServer = await startHangingHttp();
		closing.push(() => hang.close());
		const { server, received } = await startReceiver();
		closing.push(() => server.close());
		const store = new MemoryStore();
		const targets = outboxTargets({ notify: { urls: [`json://${hang.host}:${hang.port}/hung`, `json://${server.origin.slice(7)}/ok`], timeoutMs: 600_000 } });
		const deliveries = startDeliveries(store, targets, { maxAgeMs: HOUR, backoff: FAST, diagnose: () => {} });
		await commitChanges(
			store,
			[1, 2, 3].map((n) => change(`https://a.example/${n}`, n)),
			targets,
			deliveries,
		);
		await hang.reached;
		await waitFor(() => deliveries.status()[1]!.delivered === 3, 'the other target given all three');
		expect(received).toHaveLength(3);
		const stopping = Date.now();
		await deliveries.stop();
		// Ended rather than waiting for the 10-minute deadline.
		expect(Date.now() - stopping).toBeLessThan(10_000);
		await hang.left;
		// The hung target's deliveries stay, for the next run.
		expect((await pending(store)).map((delivery) => delivery.shown)).toEqual(Array(3).fill(`notify json://${hang.host}:${hang.port}/hung`));
	});

	it('with attempts (a sweep), a target that keeps failing fails the run with SINK_FAILED and keeps what it did not take', async () => {
		const { server, received } = await startReceiver(() => [500]);
		closing.push(() => server.close());
		const store = new MemoryStore();
		const targets = outboxTargets({ notify: { urls: [`json://bot:pa55word@${server.origin.slice(7)}/`] } });
		const deliveries = startDeliveries(store, targets, { maxAgeMs: HOUR, backoff: FAST, attempts: 2, diagnose: () => {} });
		closing.push(() => deliveries.stop());
		await commitChanges(store, [change('https://a.example/', 1)], targets, deliveries);
		const error = await deliveries.drain().catch((failure: unknown) => failure);
		expect(error).toMatchObject({ code: 'SINK_FAILED' });
		expect((error as Error).message).toMatch(
			/^notify json:\/\/bot:\*\*\*@127\.0\.0\.1:\d+\/: answered 500 after 2 attempts; the changes not delivered stay in the store/,
		);
		expect(received).toHaveLength(2);
		expect(await pending(store)).toHaveLength(1);
	});

	it('drain() delivers what is pending, from an earlier run too, then ends', async () => {
		const { server, received } = await startReceiver();
		closing.push(() => server.close());
		const store = new MemoryStore();
		const targets = outboxTargets({ webhook: { url: server.url('/hook'), batch: 2 } });
		// Committed by an earlier run, which had no worker.
		await commitChanges(
			store,
			[1, 2, 3].map((n) => change(`https://a.example/${n}`, n)),
			targets,
		);
		const deliveries = startDeliveries(store, targets, { maxAgeMs: HOUR, attempts: 4, diagnose: () => {} });
		await deliveries.drain();
		await deliveries.stop();
		// --webhook-batch 2: two POSTs, the changes in commit order.
		expect(received.map((request) => (request.body as { changes: Array<{ verdict: { url: string } }> }).changes.map((entry) => entry.verdict.url))).toEqual([
			['https://a.example/1', 'https://a.example/2'],
			['https://a.example/3'],
		]);
		expect(await pending(store)).toEqual([]);
	});

	it("on a shared store, each process sends its own deliveries and those made before it started, not another's: one change, one message", async () => {
		const { server, received } = await startReceiver();
		closing.push(() => server.close());
		const store = new MemoryStore();
		const targets = outboxTargets({ notify: { urls: [`json://${server.origin.slice(7)}/`] } });
		// Left by a process that died before these started.
		await lastValueFrom(
			from([change('https://a.example/0', 0)]).pipe(enqueue(targets, { run: 'deadbeef', now: () => Date.now() - 60_000 }), commit({}, store), toArray()),
		);
		const members = ['aaaaaaaa', 'bbbbbbbb'].map((run) => ({
			run,
			deliveries: startDeliveries(store, targets, { maxAgeMs: HOUR, shared: { run, adoptAfterMs: HOUR }, diagnose: () => {} }),
		}));
		for (const member of members) closing.push(() => member.deliveries.stop());
		for (const [i, member] of members.entries()) {
			const tasks = [1, 2, 3].map((n) => change(`https://a.example/${member.run}/${n}`, 10 * i + n));
			await lastValueFrom(from(tasks).pipe(enqueue(targets, { run: member.run, queued: (id) => member.deliveries.queued(id) }), commit({}, store), toArray()));
		}
		await waitFor(() => received.length >= 7, 'every change delivered');
		await Promise.all(members.map((member) => member.deliveries.drain()));
		const urls = received.map((request) => (request.body as { url: string }).url);
		// The dead process's change may go out from both (each started after it): at least once; the others once each.
		expect(urls.filter((url) => url !== 'https://a.example/0').sort()).toEqual(
			['aaaaaaaa', 'bbbbbbbb'].flatMap((run) => [1, 2, 3].map((n) => `https://a.example/${run}/${n}`)).sort(),
		);
		expect(urls).toContain('https://a.example/0');
		expect(await pending(store)).toEqual([]);
	});

	it('drops deliveries older than maxAgeMs, with a line, without sending them', async () => {
		const { server, received } = await startReceiver();
		closing.push(() => server.close());
		const store = new MemoryStore();
		const targets = outboxTargets({ notify: { urls: [`json://${server.origin.slice(7)}/`] } });
		await commitChanges(store, [change('https://a.example/', 1)], targets);
		const lines: string[] = [];
		const deliveries = startDeliveries(store, targets, { maxAgeMs: 60_000, diagnose: (line) => lines.push(line), now: () => Date.now() + 2 * 60_000 });
		await deliveries.drain();
		await deliveries.stop();
		expect(received).toEqual([]);
		expect(await pending(store)).toEqual([]);
		expect(lines).toEqual([expect.stringMatching(/^notify json:\/\/127\.0\.0\.1:\d+\/: 1 delivery older than --delivery-max-age 1m dropped$/)]);
		expect(deliveries.status()[0]).toMatchObject({ dropped: 1 });
	});
});
