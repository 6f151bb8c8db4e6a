import { describe, expect, it } from 'vitest';
import { WATCH_INTERVALS, watchInterval } from '../../src/domain/schedule/due-time.js';
import { newHostRecord } from '../../src/net/hosts/record.js';
import { RECORD_VERSION, type UrlRecord } from '../../src/store/model/types.js';
import type { Task } from '../../src/domain/task/types.js';
import { nextDue } from '../../src/watch/reschedule.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');
const record = (over: Partial<UrlRecord> = {}): UrlRecord => ({
	v: RECORD_VERSION,
	status: 200,
	etag: '"a"',
	lastChecked: NOW,
	checks: Array.from({ length: 20 }, () => 1440),
	rate: 0.05,
	...over,
});
const task = (over: Partial<Task>): Task => ({ line: 1, text: 'https://a.test/p', url: 'https://a.test/p', origin: 'https://a.test', ...over }) as Task;

describe('nextDue', () => {
	it('is the interval at which a check is worth μ, after the check just made', () => {
		const next = record();
		const entry = nextDue(
			task({ next, verdict: { url: 'https://a.test/p', changed: false, reason: '304' } as Task['verdict'] }),
			0.5,
			WATCH_INTERVALS,
			undefined,
			NOW,
			() => 0.5,
		);
		const interval = watchInterval(0.05, 0.5, 20, WATCH_INTERVALS);
		expect(entry).toEqual({ url: 'https://a.test/p', origin: 'https://a.test', rate: 0.05, due: NOW + interval, notBefore: NOW + 0.75 * interval });
	});

	it("is not pulled ahead before three quarters of its interval, however early a falling μ made others' due times", () => {
		// A new watch's μ falls for days: a URL checked now at μ 0.05 is due before one checked
		// yesterday at μ 0.5. It must not be the next pulled ahead an hour later, again and again.
		const verdict = { url: 'https://a.test/p', changed: false, reason: '304' } as Task['verdict'];
		const entry = nextDue(task({ next: record(), verdict }), 0.05, WATCH_INTERVALS, undefined, NOW, () => 0.5)!;
		expect(entry.due - NOW).toBeGreaterThan(86_400_000);
		expect(entry.notBefore! - NOW).toBeCloseTo(0.75 * (entry.due - NOW), -3);
		// Where the interval is short, --min-interval still holds.
		const short = nextDue(task({ next: record(), verdict }), 0.5, { ...WATCH_INTERVALS, minMs: 40 * 86_400_000 }, undefined, NOW, () => 0.5)!;
		expect(short.notBefore).toBe(NOW + 40 * 86_400_000);
	});

	it("brings a failed check back within the hour, jittered so that an outage's retries spread", () => {
		const failed = (random: number) =>
			nextDue(
				task({ record: record(), verdict: { url: 'https://a.test/p', changed: false, reason: 'error' } as Task['verdict'] }),
				0.5,
				WATCH_INTERVALS,
				undefined,
				NOW,
				() => random,
			)!.due - NOW;
		expect(failed(0)).toBeCloseTo(0.9 * 3_600_000, -3);
		expect(failed(1)).toBeCloseTo(1.1 * 3_600_000, -3);
	});

	it('waits for a trusted max-age that says the answer stays fresh longer, and not for an untrusted one', () => {
		const fresh = record({ freshUntil: NOW + 90 * 86_400_000 });
		const verdict = { url: 'https://a.test/p', changed: false, reason: '304' } as Task['verdict'];
		const trusted = { ...newHostRecord(NOW), maxAge: { right: 9, wrong: 0, streak: 9, trusted: true, reason: '', skipped: 0, sampled: 0 } };
		expect(nextDue(task({ next: fresh, verdict }), 0.5, WATCH_INTERVALS, trusted, NOW, Math.random)!.due).toBe(NOW + 90 * 86_400_000);
		expect(nextDue(task({ next: fresh, verdict }), 0.5, WATCH_INTERVALS, newHostRecord(NOW), NOW, Math.random)!.due).toBeLessThan(NOW + 90 * 86_400_000);
	});
});
