import { from, lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashText } from '../../src/content/content-hash.js';
import { learnNoise, maskedHash } from '../../src/content/noise.js';
import { learnNoiseStage } from '../../src/stages/learn-noise.js';
import { RECORD_VERSION, type UrlRecord } from '../../src/store/types.js';
import type { Task, Verdict } from '../../src/types.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { NOW, noRetries, sendDeps } from './deps.js';

// A page whose only moving part is a counter: the text of its n-th answer.
const page = (n: number, lead = 'Hello') => `<p>${lead}</p><p>served ${n} times</p>`;

let server: TestServer;
let served = 0;
const deps = sendDeps({ client: { keepText: true } });
beforeAll(async () => {
	server = await startServer((_req, res) => {
		served++;
		res.writeHead(200, { 'content-type': 'text/plain' }).end(page(served));
	});
});
beforeEach(() => {
	server.requests.length = 0;
	served = 1;
});
afterAll(async () => {
	deps.close();
	await server.close();
});

/** A task as compare leaves it after the first fetch (answer 1), judged `verdict`, against `record`. */
const judged = (record: UrlRecord | null, verdict: Partial<Verdict>): Task => {
	const url = server.url('/p');
	const text = page(1);
	const content = { hash: hashText(text), rules: '-', text };
	return {
		line: 1,
		input: url,
		url,
		origin: server.origin,
		record,
		probe: { status: 200, finalUrl: url, permanent: false, bytes: text.length, ms: 1, hash: 'raw', content },
		verdict: { url, changed: true, reason: 'new', ...verdict },
		next: { v: RECORD_VERSION, status: 200, hash: 'raw', lastChecked: NOW, content: { hash: content.hash, rules: '-' } },
	};
};

const run = (tasks: Task[], onFirstNoise?: (origin: string) => void) =>
	lastValueFrom(from(tasks).pipe(learnNoiseStage(deps, { ...noRetries, concurrency: 2 }, onFirstNoise), toArray()));

// What the second fetch (answer 2) teaches against answer 1.
const patterns = () => learnNoise(page(1), page(2));

describe('learnNoiseStage', () => {
	it('fetches a new URL a second time, unconditionally, and stores what differed as noise', async () => {
		const firsts: string[] = [];
		const [out] = await run([judged(null, { reason: 'new' })], (origin) => firsts.push(origin));
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0]!.headers).not.toHaveProperty('if-none-match');
		expect(patterns().length).toBeGreaterThan(0);
		expect(out!.next!.noise).toEqual(patterns());
		expect(out!.next!.content!.hash).toBe(maskedHash(page(1), patterns()));
		expect(out!.noiseFetched).toBe(true);
		expect(out!.verdict).toMatchObject({ changed: true, reason: 'new' });
		expect(firsts).toEqual([server.origin]);
	});

	it('turns a change the noise explains into same-content', async () => {
		// Stored: an earlier answer, whose counter differs; counted without the noise it is the same page.
		const record: UrlRecord = { v: RECORD_VERSION, status: 200, hash: 'old', lastChecked: NOW - 1000, content: { hash: maskedHash(page(0), patterns()), rules: '-' } };
		const [out] = await run([judged(record, { reason: 'new-body' })]);
		expect(out!.verdict).toMatchObject({ changed: false, reason: 'same-content' });
		expect(out!.next!.noise).toEqual(patterns());
	});

	it('still reports a real edit elsewhere on the page, and keeps the noise it learnt', async () => {
		const record: UrlRecord = { v: RECORD_VERSION, status: 200, hash: 'old', lastChecked: NOW - 1000, content: { hash: maskedHash(page(0, 'Goodbye'), patterns()), rules: '-' } };
		const [out] = await run([judged(record, { reason: 'new-body' })]);
		expect(out!.verdict).toMatchObject({ changed: true, reason: 'new-body' });
		expect(out!.next!.noise).toEqual(patterns());
	});

	it('sends nothing for an unchanged verdict or a task without counted text', async () => {
		const unchanged = judged(null, { changed: false, reason: 'same-hash' });
		const noText = judged(null, {});
		noText.probe = { ...noText.probe!, content: undefined };
		const out = await run([unchanged, noText]);
		expect(server.requests).toHaveLength(0);
		expect(out.every((task) => task.noiseFetched === undefined && task.next?.noise === undefined)).toBe(true);
	});

	it('sends nothing for a URL it is told not to learn', async () => {
		const out = await lastValueFrom(from([judged(null, {})]).pipe(learnNoiseStage(deps, { ...noRetries, concurrency: 2, learns: () => false }), toArray()));
		expect(server.requests).toHaveLength(0);
		expect(out[0]!.next!.noise).toBeUndefined();
	});
});
