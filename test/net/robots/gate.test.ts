import { afterEach, describe, expect, it } from 'vitest';
import { createHostBook } from '../../../src/net/hosts/book.js';
import { createHttpClient } from '../../../src/net/http/client.js';
import { createLimiter } from '../../../src/net/http/limiter.js';
import { createRobotsGate } from '../../../src/net/robots/gate.js';
import { MemoryStore } from '../../../src/store/level/memory.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const DAY = 86_400_000;

describe('robots.txt gate', () => {
	let server: TestServer | undefined;
	const clients: Array<{ close(): void }> = [];
	afterEach(async () => {
		await server?.close();
		server = undefined;
		for (const client of clients.splice(0)) client.close();
	});

	/** A run at `now` against a store that outlives it, as a new run would open it. */
	const run = async (store: MemoryStore, now: number) => {
		const clock = { now: () => now };
		const book = createHostBook(store, now);
		await book.load([server!.origin]);
		const client = createHttpClient({ userAgent: 'revisit/0.1', timeoutMs: 5000, acceptEncoding: 'gzip' });
		clients.push(client);
		const gate = createRobotsGate(
			{ http: client.got, limiter: createLimiter({ concurrency: 4, perHost: 4 }, clock), clock, book },
			{ agent: 'revisit', maxCrawlDelayMs: 30_000, timeoutMs: 5000 },
		);
		return { gate, save: () => store.batch(book.drain()) };
	};

	it('fetches robots.txt once for concurrent URLs of an origin', async () => {
		server = await startServer((req, res) => setTimeout(() => res.end('User-agent: *\nDisallow: /x\n'), 50));
		const { gate } = await run(new MemoryStore(), Date.now());
		const answers = await Promise.all(['/a', '/x', '/b', '/x/y'].map((path) => gate.check(server!.url(path), server!.origin)));
		expect(answers.map((answer) => answer.verdict)).toEqual(['allow', 'robots', 'allow', 'robots']);
		expect(server.seen('/robots.txt')).toHaveLength(1);
	});

	it('applies the last good copy when robots.txt fails, up to 30 days old; after that, defers the origin with an error for each URL', async () => {
		let healthy = true;
		server = await startServer((req, res) => (healthy ? res.end('User-agent: *\nDisallow: /x\n') : res.writeHead(500).end()));
		const store = new MemoryStore();
		const t0 = Date.now();
		const first = await run(store, t0);
		expect((await first.gate.origin(server.origin)).source).toBe('fetched');
		await first.save();

		healthy = false;
		const within = await run(store, t0 + 29 * DAY);
		expect(await within.gate.origin(server.origin)).toMatchObject({ source: 'stale', status: 500 });
		expect((await within.gate.check(server.url('/x'), server.origin)).verdict).toBe('robots');

		const past = await run(store, t0 + 31 * DAY);
		const answers = await Promise.all(['/a', '/b'].map((path) => past.gate.check(server!.url(path), server!.origin)));
		expect(answers.map((answer) => answer.verdict)).toEqual(['deferred', 'deferred']);
		expect(answers.map((answer) => answer.error?.code)).toEqual(['HTTP_500', 'HTTP_500']);
		expect(answers[0]!.error!.message).toContain('robots.txt answered HTTP 500');
		// The per-URL error says it all: no notice besides.
		expect(answers.filter((answer) => answer.notice !== undefined)).toHaveLength(0);
	});

	it('defers an origin whose Crawl-delay is over the cap without an error, and says so once', async () => {
		server = await startServer((req, res) => res.end('User-agent: *\nCrawl-delay: 60\n'));
		const { gate } = await run(new MemoryStore(), Date.now());
		const answers = await Promise.all(['/a', '/b'].map((path) => gate.check(server!.url(path), server!.origin)));
		expect(answers.map((answer) => [answer.verdict, answer.error])).toEqual([
			['deferred', undefined],
			['deferred', undefined],
		]);
		expect(answers.filter((answer) => answer.notice !== undefined)).toHaveLength(1);
		expect(answers.find((answer) => answer.notice)!.notice).toContain('Crawl-delay 60s');
	});

	it('uses a fresh copy without a request, and revalidates a stale one with its Last-Modified', async () => {
		server = await startServer((req, res) => {
			if (req.headers['if-modified-since'] === 'Mon, 01 Jan 2024 00:00:00 GMT') return void res.writeHead(304).end();
			res.writeHead(200, { 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT', 'cache-control': 'public, max-age=600' }).end('User-agent: *\nDisallow: /x\n');
		});
		const store = new MemoryStore();
		const t0 = Date.now();
		const first = await run(store, t0);
		expect((await first.gate.origin(server.origin)).copy?.freshMs).toBe(600_000);
		await first.save();
		const soon = await run(store, t0 + 599_000);
		expect((await soon.gate.origin(server.origin)).source).toBe('cached');
		const later = await run(store, t0 + 601_000);
		expect(await later.gate.origin(server.origin)).toMatchObject({ source: '304', status: 304 });
		expect(server.requests).toHaveLength(2);
		expect((await later.gate.check(server.url('/x'), server.origin)).verdict).toBe('robots');
	});
});
