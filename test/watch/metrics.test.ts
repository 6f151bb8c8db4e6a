import { describe, expect, it } from 'vitest';
import { createWatchMetrics } from '../../src/watch/metrics.js';

/** The samples of a text exposition whose name starts with `prefix`, as `name{labels}` to value. */
function samples(text: string, prefix = 'revisit_'): Map<string, number> {
	const found = new Map<string, number>();
	for (const line of text.split('\n')) {
		if (!line.startsWith(prefix)) continue;
		const at = line.lastIndexOf(' ');
		found.set(line.slice(0, at), Number(line.slice(at + 1)));
	}
	return found;
}

describe('createWatchMetrics', () => {
	it('counts checks by reason, with requests, body bytes and changes', async () => {
		const metrics = createWatchMetrics();
		metrics.check('304', 0, false);
		metrics.check('304', 0, false);
		metrics.check('new-body', 1200, true);
		metrics.check('robots', 0, false);
		metrics.check('audit', 300, false, 2);
		const seen = samples(await metrics.text());
		expect(seen.get('revisit_checks_total{reason="304"}')).toBe(2);
		expect(seen.get('revisit_checks_total{reason="new-body"}')).toBe(1);
		expect(seen.get('revisit_checks_total{reason="robots"}')).toBe(1);
		// Reasons not seen yet are there at 0, so that rate() sees their first.
		expect(seen.get('revisit_checks_total{reason="error"}')).toBe(0);
		expect(seen.get('revisit_requests_total')).toBe(5);
		expect(seen.get('revisit_bytes_total')).toBe(1500);
		expect(seen.get('revisit_changes_total')).toBe(1);
	});

	it('shows the queue, and only the deepest origins, dropping one that left them', async () => {
		const metrics = createWatchMetrics({ origins: 2 });
		metrics.queue({ size: 10, backlog: 8, claimed: 1, hosts: 3 }, [
			{ origin: 'https://a', depth: 1 },
			{ origin: 'https://b', depth: 5 },
			{ origin: 'https://c', depth: 2 },
		]);
		let seen = samples(await metrics.text());
		expect([seen.get('revisit_queue_urls'), seen.get('revisit_queue_backlog'), seen.get('revisit_queue_claimed'), seen.get('revisit_queue_hosts')]).toEqual([
			10, 8, 1, 3,
		]);
		expect([...seen.keys()].filter((key) => key.startsWith('revisit_queue_depth'))).toEqual([
			'revisit_queue_depth{origin="https://b"}',
			'revisit_queue_depth{origin="https://c"}',
		]);

		// Stats alone leave the origins as they were; a new list replaces them.
		metrics.queue({ size: 9, backlog: 0, claimed: 0, hosts: 3 });
		expect(samples(await metrics.text()).get('revisit_queue_depth{origin="https://b"}')).toBe(5);
		metrics.queue({ size: 9, backlog: 4, claimed: 0, hosts: 3 }, [{ origin: 'https://a', depth: 4 }]);
		seen = samples(await metrics.text());
		expect([...seen.entries()].filter(([key]) => key.startsWith('revisit_queue_depth'))).toEqual([['revisit_queue_depth{origin="https://a"}', 4]]);
	});

	it('buckets lateness in seconds from 10 ms to a day, early as on time', async () => {
		const metrics = createWatchMetrics();
		metrics.late(0.005);
		metrics.late(-2);
		metrics.late(2);
		metrics.late(7200);
		const seen = samples(await metrics.text());
		expect(seen.get('revisit_lateness_seconds_bucket{le="0.01"}')).toBe(2);
		expect(seen.get('revisit_lateness_seconds_bucket{le="3"}')).toBe(3);
		expect(seen.get('revisit_lateness_seconds_bucket{le="86400"}')).toBe(4);
		expect(seen.get('revisit_lateness_seconds_count')).toBe(4);
		expect(seen.get('revisit_lateness_seconds_sum')).toBeCloseTo(7202.005);
	});

	it("shows the model's threshold, expected freshness and rates", async () => {
		const metrics = createWatchMetrics();
		metrics.model({ mu: 0.125, freshness: 0.93, target: 20, rate: 19.5 });
		const seen = samples(await metrics.text());
		expect([seen.get('revisit_threshold'), seen.get('revisit_expected_freshness'), seen.get('revisit_rate_target'), seen.get('revisit_dispatch_rate')]).toEqual(
			[0.125, 0.93, 20, 19.5],
		);
	});

	it("keeps each watch's figures on its own registry, with the process metrics", async () => {
		const one = createWatchMetrics();
		const two = createWatchMetrics();
		one.check('new', 10, true);
		expect(samples(await two.text()).get('revisit_changes_total')).toBe(0);
		const text = await one.text();
		expect(text).toContain('# TYPE process_cpu_seconds_total counter');
		expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
		expect(one.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
	});

	it('shows each delivery target, named without secrets, with its pending deliveries, failed attempts and drops, read at each scrape', async () => {
		const targets = [{ shown: 'notify mailtos://me:***@smtp.example.org?to=me@example.org', pending: 3, failures: 7, dropped: 0 }];
		const metrics = createWatchMetrics({ deliveries: () => targets });
		let shown = samples(await metrics.text());
		expect(shown.get('revisit_deliveries_pending{target="notify mailtos://me:***@smtp.example.org?to=me@example.org"}')).toBe(3);
		expect(shown.get('revisit_delivery_failures_total{target="notify mailtos://me:***@smtp.example.org?to=me@example.org"}')).toBe(7);
		expect(shown.get('revisit_deliveries_dropped_total{target="notify mailtos://me:***@smtp.example.org?to=me@example.org"}')).toBe(0);
		targets[0] = { ...targets[0]!, pending: 0, failures: 9 };
		shown = samples(await metrics.text());
		expect(shown.get('revisit_deliveries_pending{target="notify mailtos://me:***@smtp.example.org?to=me@example.org"}')).toBe(0);
		expect(shown.get('revisit_delivery_failures_total{target="notify mailtos://me:***@smtp.example.org?to=me@example.org"}')).toBe(9);
	});

	it('refuses a count of origins that is not a whole number', () => {
		expect(() => createWatchMetrics({ origins: -1 })).toThrow(/whole number of origins/);
	});
});
