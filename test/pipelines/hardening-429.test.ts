import { describe, expect, it } from 'vitest';
import { readRecord, readStore, sweepRun, useFixtures, verdictFor } from './fixtures.js';

/**
 * 429 Too Many Requests: Retry-After (seconds or HTTP-date) is waited out, outside the
 * concurrency slots, up to --max-retry-after; beyond it the URL is an error at once.
 */
describe('sweep against a rate-limiting server (429)', () => {
	const fx = useFixtures();

	/**
	 * `/limited` and `/fine` are stored by a good run; then `/limited` answers 429 with
	 * `retryAfter()` to its next `limited` requests, and a new body after that.
	 */
	async function rateLimited(retryAfter: () => string, limited: number) {
		const times: number[] = [];
		let throttle = false;
		let body = 'first version';
		const server = await fx.serve((req, res) => {
			if (req.url === '/fine') return void res.writeHead(200, { etag: '"fine"' }).end('always fine');
			if (throttle && limited-- > 0) {
				times.push(Date.now());
				return void res.writeHead(429, { 'retry-after': retryAfter() }).end('slow down');
			}
			times.push(Date.now());
			res.writeHead(200, { etag: `"${body.length}"` }).end(body);
		});
		const [url, fine] = [server.url('/limited'), server.url('/fine')];
		expect((await sweepRun(fx.dir, [url, fine])).status).toBe(0);
		const before = await readRecord(fx.dir, url);
		expect(before).toMatchObject({ status: 200, etag: '"13"' });
		throttle = true;
		body = 'second, longer version';
		times.length = 0;
		return { server, times, url, fine, before };
	}

	it('honours Retry-After in seconds: waits, retries, and reports the change', async () => {
		const { server, times, url, fine } = await rateLimited(() => '1', 1);
		const run = await sweepRun(fx.dir, [url, fine], ['--retries', '2']);
		expect(run.status).toBe(0);
		expect(verdictFor(run, url)).toMatchObject({ changed: true, reason: 'new-body', status: 200, etag: '"22"' });
		expect(verdictFor(run, fine)).toMatchObject({ changed: false, reason: 'same-hash' });
		expect(run.stderr).toBe('');
		expect(times).toHaveLength(2);
		// Measured on the server: the retry came no sooner than asked (timer slack allowed).
		expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(950);
		expect(server.seen('/limited')).toHaveLength(3);
		expect(await readRecord(fx.dir, url)).toMatchObject({ etag: '"22"' });
	});

	it('honours Retry-After as an HTTP-date', async () => {
		// A whole second at least 1.5 s away: longer than any backoff (at most 1 s), so only the date explains the wait.
		const { times, url, fine } = await rateLimited(() => new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000).toUTCString(), 1);
		const run = await sweepRun(fx.dir, [url, fine], ['--retries', '1', '--max-retry-after', '5']);
		expect(run.status).toBe(0);
		expect(verdictFor(run, url)).toMatchObject({ changed: true, reason: 'new-body' });
		expect(times).toHaveLength(2);
		expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(1400);
	});

	it.each([
		['seconds', () => '120'],
		['an HTTP-date', () => new Date(Date.now() + 600_000).toUTCString()],
	])('gives up at once with HTTP_429 when Retry-After in %s is beyond --max-retry-after, keeping the record', async (_form, retryAfter) => {
		const { server, url, fine, before } = await rateLimited(retryAfter, 10);
		const run = await sweepRun(fx.dir, [url, fine], ['--retries', '3', '--max-retry-after', '30']);
		expect(run.status).toBe(1);
		expect(verdictFor(run, url)).toMatchObject({ changed: false, reason: 'error', status: 429, error: { code: 'HTTP_429' } });
		expect((verdictFor(run, url).error as { message: string }).message).toMatch(/beyond the 30s cap/);
		expect(verdictFor(run, fine)).toMatchObject({ changed: false, reason: 'same-hash' });
		expect(run.stderr).toContain(`${url}: HTTP_429`);
		expect(server.seen('/limited')).toHaveLength(2); // the good run, then one 429: no retry
		expect(await readStore(fx.dir, [url])).toEqual([before]);
	});
});
