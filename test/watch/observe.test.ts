import { afterEach, describe, expect, it } from 'vitest';
import type { TargetStatus } from '../../src/io/outbox/worker.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import { observeWatch } from '../../src/watch/observe.js';

describe('observeWatch: deliveries on /healthz and /metrics', () => {
	let close: (() => Promise<void>) | undefined;
	afterEach(async () => {
		await close?.();
		close = undefined;
	});

	it('says degraded once a target has had a delivery pending past a minute, naming it without its secrets; ok again once delivered', async () => {
		const target: TargetStatus = {
			id: 'a1',
			shown: 'notify mailtos://me:***@127.0.0.1:2525?to=me@example.org',
			pending: 2,
			oldestAt: Date.now() - 30_000,
			failures: 4,
			delivered: 0,
			dropped: 0,
			failing: { since: Date.now() - 30_000, problem: 'connect ECONNREFUSED 127.0.0.1:2525' },
		};
		let port = 0;
		const watching = await observeWatch(
			{ host: '127.0.0.1', port: 0 },
			{ store: new MemoryStore(), source: 'memory', scale: 1, deliveries: () => [target], onListening: (address) => (port = address.port) },
		);
		close = watching.close;
		watching.observer.queue?.({ size: 1, backlog: 0, claimed: 0, hosts: 1 });
		const health = async () => {
			const response = await fetch(`http://127.0.0.1:${port}/healthz`);
			return [response.status, await response.text()];
		};
		// Pending for half a minute: still ok.
		expect(await health()).toEqual([200, 'ok\n']);
		target.oldestAt = Date.now() - 90_000;
		expect(await health()).toEqual([
			200,
			'degraded: notify mailtos://me:***@127.0.0.1:2525?to=me@example.org: 2 deliveries pending for 90 s (connect ECONNREFUSED 127.0.0.1:2525)\n',
		]);
		const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
		expect(metrics).toContain('revisit_deliveries_pending{target="notify mailtos://me:***@127.0.0.1:2525?to=me@example.org"} 2');
		Object.assign(target, { pending: 0, oldestAt: undefined, failing: undefined });
		expect(await health()).toEqual([200, 'ok\n']);
	});
});
