import { from, lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashText } from '../../src/domain/content/content-hash.js';
import { learnPlaces, maskedHash } from '../../src/domain/content/noise.js';
import { noiseOf } from '../../src/net/hosts/noise.js';
import { newHostRecord } from '../../src/net/hosts/record.js';
import { learnNoiseStage, type LearnHooks } from '../../src/stages/learn-noise.js';
import { RECORD_VERSION, type HostRecord, type UrlRecord } from '../../src/store/model/types.js';
import type { Task, Verdict } from '../../src/domain/task/types.js';
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

const run = (tasks: Task[], hooks: LearnHooks = {}) =>
	lastValueFrom(from(tasks).pipe(learnNoiseStage({ ...noRetries, concurrency: 2 }, { ...deps, now: () => NOW, ...hooks }), toArray()));

// Where the second fetch (answer 2) differs from answer 1: the counter's text.
const PLACE = 'html:p:1>#text';

describe('learnNoiseStage', () => {
	it('fetches a new URL a second time, unconditionally, and stores where it differed as noise', async () => {
		const firsts: string[] = [];
		const [out] = await run([judged(null, { reason: 'new' })], { onFirstNoise: (origin) => firsts.push(origin) });
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0]!.headers).not.toHaveProperty('if-none-match');
		expect(learnPlaces(page(1), page(2))).toEqual([PLACE]);
		expect(out!.next!.learned).toEqual([{ at: PLACE, since: NOW }]);
		expect(out!.next!.content).toMatchObject({ hash: maskedHash(page(1), [PLACE]), noiseAt: NOW });
		expect(maskedHash(page(1), [PLACE])).toBe(maskedHash(page(7), [PLACE]));
		expect(out!.noiseFetched).toBe(true);
		expect(out!.verdict).toMatchObject({ changed: true, reason: 'new' });
		expect(firsts).toEqual([server.origin]);
	});

	it('still reports the change it was called for, and keeps the noise it learnt', async () => {
		const record: UrlRecord = {
			v: RECORD_VERSION,
			status: 200,
			hash: 'old',
			lastChecked: NOW - 1000,
			content: { hash: hashText(page(0, 'Goodbye')), rules: '-' },
		};
		const [out] = await run([judged(record, { reason: 'new-body' })]);
		expect(out!.verdict).toMatchObject({ changed: true, reason: 'new-body' });
		expect(out!.next!.learned).toEqual([{ at: PLACE, since: NOW }]);
	});

	it("counts the place for the host per URL template: learned on 3 pages, it applies to all the template's pages", async () => {
		let host: HostRecord = newHostRecord(NOW);
		const book = { get: () => host, set: (_origin: string, next: HostRecord) => void (host = next) };
		const at = (path: string) => ({ ...judged(null, {}), url: server.url(path) });
		await run([at('/item/1'), at('/item/2')], { host: book });
		expect(host.noise).toEqual([{ template: '/item/*', at: PLACE, pages: [expect.any(String), expect.any(String)], since: NOW }]);
		await run([at('/item/3')], { host: book });
		expect(host.noise![0]).toMatchObject({ applies: NOW });
		expect(noiseOf(undefined, host.noise, server.url('/item/99'))).toEqual([{ at: PLACE, since: NOW, where: 'host' }]);
		expect(noiseOf(undefined, host.noise, server.url('/about'))).toEqual([]);
	});

	it('sends nothing for an unchanged verdict or a task without counted text', async () => {
		const unchanged = judged(null, { changed: false, reason: 'same-hash' });
		const noText = judged(null, {});
		noText.probe = { ...noText.probe!, content: undefined };
		const out = await run([unchanged, noText]);
		expect(server.requests).toHaveLength(0);
		expect(out.every((task) => task.noiseFetched === undefined && task.next?.learned === undefined)).toBe(true);
	});

	it('sends nothing for a URL it is told not to learn', async () => {
		const out = await lastValueFrom(from([judged(null, {})]).pipe(learnNoiseStage({ ...noRetries, concurrency: 2, learns: () => false }, deps), toArray()));
		expect(server.requests).toHaveLength(0);
		expect(out[0]!.next!.learned).toBeUndefined();
	});
});
