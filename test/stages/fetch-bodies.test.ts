import { from, lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashBody } from '../../src/domain/content/hash.js';
import { fetchBodies, type FetchBodiesOptions } from '../../src/stages/fetch-bodies.js';
import { RECORD_VERSION, type UrlRecord } from '../../src/store/model/types.js';
import type { Task } from '../../src/domain/task/types.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { NOW, noRetries, sendDeps } from './deps.js';
import { OptionError } from '../../src/base/errors/index.js';

let server: TestServer;
const deps = sendDeps();
beforeAll(async () => {
	server = await startServer((req, res) => {
		res.writeHead(200, { etag: '"e"', 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT', 'content-type': 'text/html' }).end(`<p>${req.url}</p>`);
	});
});
beforeEach(() => {
	server.requests.length = 0;
});
afterAll(async () => {
	deps.close();
	await server.close();
});

const stored: UrlRecord = { v: RECORD_VERSION, status: 200, etag: '"e"', lastModified: 'Mon, 01 Jan 2024 00:00:00 GMT', hash: 'old', lastChecked: NOW - 1000 };
const task = (path: string, more: Partial<Task> = {}): Task => ({
	line: 1,
	input: server.url(path),
	url: server.url(path),
	origin: server.origin,
	record: stored,
	...more,
});
const candidate = (path: string, more: Partial<Task> = {}): Task =>
	task(path, { verdict: { url: server.url(path), changed: true, reason: 'candidate' }, ...more });
const unchanged = (path: string): Task => task(path, { verdict: { url: server.url(path), changed: false, reason: '304' } });

const run = (tasks: Task[], options: Partial<FetchBodiesOptions> = {}) =>
	lastValueFrom(from(tasks).pipe(fetchBodies({ ...noRetries, highWater: 4, only: 'candidates', ...options }, deps), toArray()));

describe('fetchBodies', () => {
	it('downloads each candidate with an unconditional GET and keeps its body, for compare to judge', async () => {
		const [out] = await run([candidate('/a')]);
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0]!.method).toBe('GET');
		expect(server.requests[0]!.headers).not.toHaveProperty('if-none-match');
		expect(server.requests[0]!.headers).not.toHaveProperty('if-modified-since');
		expect(out!.probe).toMatchObject({ status: 200, contentType: 'text/html', hash: hashBody(Buffer.from('<p>/a</p>')) });
		expect(out!.probe!.body?.toString()).toBe('<p>/a</p>');
		expect(out!.verdict).toBeUndefined();
		expect(out!.fetched).toBe(true);
	});

	it('fetches only candidates in a crawl, and passes the rest on untouched', async () => {
		const out = await run([candidate('/c'), unchanged('/u'), task('/v')]);
		expect(server.requests.map((request) => request.path)).toEqual(['/c']);
		expect(out.find((t) => t.url === server.url('/u'))!.verdict?.reason).toBe('304');
		expect(out.find((t) => t.url === server.url('/v'))!.probe).toBeUndefined();
	});

	it('with only all, fetches every task not yet judged and leaves judged ones', async () => {
		const out = await run([task('/x'), task('/y'), unchanged('/u')], { only: 'all' });
		expect(server.requests.map((request) => request.path).sort()).toEqual(['/x', '/y']);
		expect(out.filter((t) => t.fetched)).toHaveLength(2);
	});

	it('holds, without a request, the tasks of an origin the churn guard blocked', async () => {
		const [out] = await run([candidate('/held')], { skip: (origin) => origin === server.origin });
		expect(server.requests).toHaveLength(0);
		expect(out!.skip).toBe('held');
		expect(out!.verdict).toBeUndefined();
		expect(out!.probe).toBeUndefined();
	});

	it('fetches the end of a permanent redirect chain directly', async () => {
		const [out] = await run([candidate('/old', { record: { ...stored, finalUrl: server.url('/new'), permanent: true } })]);
		expect(server.requests.map((request) => request.path)).toEqual(['/new']);
		expect(out!.probe!.body?.toString()).toBe('<p>/new</p>');
	});

	it('refuses a highWater that is not a positive integer', () => {
		expect(() => fetchBodies({ ...noRetries, highWater: 0, only: 'all' }, deps)).toThrow(OptionError);
	});
});
