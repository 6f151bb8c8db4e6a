import type http from 'node:http';
import { from, lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { createHostBook } from '../../src/net/hosts/book.js';
import { newHostRecord } from '../../src/net/hosts/record.js';
import { trustDefaults, type TrustOptions } from '../../src/net/hosts/trust-options.js';
import { hashBody } from '../../src/domain/content/hash.js';
import { probe, type ProbeOptions } from '../../src/stages/probe.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import { RECORD_VERSION, type HostRecord, type UrlRecord } from '../../src/store/model/types.js';
import type { Task } from '../../src/domain/task/types.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { NOW, noRetries, sendDeps } from './deps.js';
import { OptionError } from '../../src/base/errors/index.js';

const LM = 'Mon, 01 Jan 2024 00:00:00 GMT';
// No random audits and no forced verification, unless a test asks for them.
const calm: TrustOptions = { ...trustDefaults, auditRate: 0, verifyEveryMs: 0 };
const options = (more: Partial<ProbeOptions> = {}): ProbeOptions => ({
	...noRetries,
	acceptEncoding: 'identity',
	method: 'get',
	trust: calm,
	highWater: 4,
	...more,
});
const stored = (fields: Partial<UrlRecord> = {}): UrlRecord => ({
	v: RECORD_VERSION,
	status: 200,
	etag: '"v1"',
	lastModified: LM,
	hash: hashBody(Buffer.from('one')),
	encoding: 'identity',
	lastChecked: NOW - 1000,
	...fields,
});

let server: TestServer | undefined;
let close: (() => void) | undefined;
afterEach(async () => {
	close?.();
	await server?.close();
	server = undefined;
});

async function origin(handler: http.RequestListener): Promise<TestServer> {
	server = await startServer(handler);
	return server;
}

/** Runs `tasks` through probe with a host book over a memory store; `host` is stored for the origin first. */
async function run(tasks: Task[], probeOptions: ProbeOptions, host?: Partial<HostRecord>): Promise<Task[]> {
	const store = new MemoryStore();
	if (host) await store.batch([{ type: 'putHost', key: server!.origin, value: { ...newHostRecord(0), ...host } }]);
	const book = createHostBook(store, NOW);
	await book.load([server!.origin]);
	const deps = sendDeps();
	close = deps.close;
	return lastValueFrom(from(tasks).pipe(probe(probeOptions, { ...deps, book }), toArray()));
}

const task = (url: string, record: UrlRecord | null): Task => ({ line: 1, input: url, url, record });

/** Answers 304 when the request carries `"v1"` in If-None-Match or the LM date in If-Modified-Since, as `honour` allows. */
const conditionalPage =
	(honour: { etag: boolean; lastModified: boolean }): http.RequestListener =>
	(req, res) => {
		const etagHit = honour.etag && req.headers['if-none-match'] === '"v1"';
		const dateHit = honour.lastModified && req.headers['if-modified-since'] === LM;
		if (etagHit || dateHit) return void res.writeHead(304, { etag: '"v1"', 'last-modified': LM }).end();
		res.writeHead(200, { etag: '"v1"', 'last-modified': LM, 'content-type': 'text/plain' }).end(req.method === 'HEAD' ? undefined : 'one');
	};

describe('probe', () => {
	it('sends the stored ETag as If-None-Match and the stored Last-Modified as If-Modified-Since', async () => {
		const site = await origin(conditionalPage({ etag: true, lastModified: true }));
		const [out] = await run([task(site.url('/a'), stored())], options(), { form: 'both' });
		expect(site.requests).toHaveLength(1);
		expect(site.requests[0]).toMatchObject({ method: 'GET', path: '/a' });
		expect(site.requests[0]!.headers['if-none-match']).toBe('"v1"');
		expect(site.requests[0]!.headers['if-modified-since']).toBe(LM);
		expect(out!.probe).toMatchObject({ status: 304, etag: '"v1"' });
		expect(out!.plan).toEqual({ sendEtag: true, sendLastModified: true, audit: false, retest: false });
		expect(out!.origin).toBe(site.origin);
	});

	it('sends no validators for a URL it has never seen, and hashes the body it gets', async () => {
		const site = await origin(conditionalPage({ etag: true, lastModified: true }));
		const [out] = await run([task(site.url('/new'), null)], options());
		expect(site.requests).toHaveLength(1);
		expect(site.requests[0]!.headers).not.toHaveProperty('if-none-match');
		expect(site.requests[0]!.headers).not.toHaveProperty('if-modified-since');
		expect(out!.probe).toMatchObject({ status: 200, etag: '"v1"', lastModified: LM, hash: hashBody(Buffer.from('one')), finalUrl: site.url('/new') });
	});

	it('does not send an ETag obtained under another Accept-Encoding, but still sends Last-Modified', async () => {
		const site = await origin(conditionalPage({ etag: true, lastModified: true }));
		const [out] = await run([task(site.url('/a'), stored({ encoding: 'gzip' }))], options(), { form: 'both' });
		expect(site.requests[0]!.headers).not.toHaveProperty('if-none-match');
		expect(site.requests[0]!.headers['if-modified-since']).toBe(LM);
		expect(out!.plan?.sendEtag).toBe(false);
		expect(out!.probe?.status).toBe(304);
	});

	it('audits a 304 with an unconditional GET when the audit rate picks it', async () => {
		const site = await origin(conditionalPage({ etag: true, lastModified: true }));
		const [out] = await run([task(site.url('/a'), stored())], options({ trust: { ...calm, auditRate: 1 } }), { form: 'both' });
		expect(site.requests).toHaveLength(2);
		expect(site.requests[0]!.headers['if-none-match']).toBe('"v1"');
		expect(site.requests[1]!.headers).not.toHaveProperty('if-none-match');
		expect(site.requests[1]!.headers).not.toHaveProperty('if-modified-since');
		expect(out!.plan?.audit).toBe(true);
		expect(out!.probe).toMatchObject({ status: 304, audit: { status: 200, hash: hashBody(Buffer.from('one')) } });
	});

	it('on a host whose form is not measured, finds the one form it honours without reading an ignored body', async () => {
		// The host ignores If-None-Match, and ignores If-Modified-Since when it comes with one.
		const site = await origin((req, res) => {
			if (req.headers['if-modified-since'] === LM && req.headers['if-none-match'] === undefined)
				return void res.writeHead(304, { etag: '"v1"', 'last-modified': LM }).end();
			res.writeHead(200, { etag: '"v1"', 'last-modified': LM }).end('one');
		});
		const [out] = await run([task(site.url('/a'), stored())], options());
		expect(site.requests.map((request) => [request.headers['if-none-match'], request.headers['if-modified-since']])).toEqual([
			['"v1"', LM],
			['"v1"', undefined],
			[undefined, LM],
		]);
		expect(out!.probe?.status).toBe(304);
		expect(out!.probe?.formCheck).toEqual([
			{ form: 'both', status: 200 },
			{ form: 'etag', status: 200 },
			{ form: 'last-modified', status: 304 },
		]);
	});

	it('with method head, asks HEAD and stops at a 304', async () => {
		const site = await origin(conditionalPage({ etag: true, lastModified: true }));
		const [out] = await run([task(site.url('/a'), stored())], options({ method: 'head' }));
		expect(site.requests.map((request) => request.method)).toEqual(['HEAD']);
		expect(site.requests[0]!.headers['if-none-match']).toBe('"v1"');
		expect(out!.probe?.status).toBe(304);
	});

	it('with method head, follows a HEAD that may have changed with a conditional GET for the body', async () => {
		const site = await origin(conditionalPage({ etag: false, lastModified: false }));
		const [out] = await run([task(site.url('/a'), stored({ etag: '"v0"' }))], options({ method: 'head' }));
		expect(site.requests.map((request) => request.method)).toEqual(['HEAD', 'GET']);
		expect(site.requests[1]!.headers['if-none-match']).toBe('"v0"');
		expect(out!.probe).toMatchObject({ status: 200, hash: hashBody(Buffer.from('one')) });
	});

	it('with method auto, samples a new host with HEAD and GET side by side and says whether they agree', async () => {
		const site = await origin(conditionalPage({ etag: false, lastModified: false }));
		const [out] = await run([task(site.url('/a'), null)], options({ method: 'auto' }));
		expect(site.requests.map((request) => request.method).sort()).toEqual(['GET', 'HEAD']);
		expect(out!.probe).toMatchObject({ status: 200, hash: hashBody(Buffer.from('one')), headCheck: { agree: true } });
	});

	it('in a candidates sweep, leaves a 200 body unread and marks it headers-only', async () => {
		const site = await origin(conditionalPage({ etag: false, lastModified: false }));
		const [out] = await run([task(site.url('/new'), null)], options({ candidates: true }));
		expect(site.requests).toHaveLength(1);
		expect(out!.probe).toMatchObject({ status: 200, headersOnly: true, etag: '"v1"' });
		expect(out!.probe?.hash).toBeUndefined();
	});

	it('goes straight to the end of a permanent redirect chain, with the validators stored for it', async () => {
		const site = await origin(conditionalPage({ etag: true, lastModified: true }));
		const [out] = await run([task(site.url('/old'), stored({ finalUrl: site.url('/new'), permanent: true }))], options(), { form: 'both' });
		expect(site.requests.map((request) => request.path)).toEqual(['/new']);
		expect(site.requests[0]!.headers['if-none-match']).toBe('"v1"');
		expect(out!.probe).toMatchObject({ status: 304, finalUrl: site.url('/new'), permanent: true });
	});

	it('passes skipped tasks and tasks without a URL through, sending nothing', async () => {
		const site = await origin(conditionalPage({ etag: true, lastModified: true }));
		const skipped: Task = { ...task(site.url('/a'), stored()), skip: 'not-due' };
		const rejected: Task = { line: 2, input: 'not a url', skip: 'rejected', problem: 'bad' };
		const out = await run([skipped, rejected], options());
		expect(site.requests).toHaveLength(0);
		expect(out).toHaveLength(2);
		expect(out.every((t) => t.probe === undefined && t.plan === undefined)).toBe(true);
	});

	it('refuses a method other than get, head or auto', () => {
		const book = createHostBook(new MemoryStore(), NOW);
		const deps = sendDeps();
		close = deps.close;
		expect(() => probe(options({ method: 'post' as never }), { ...deps, book })).toThrow(OptionError);
	});
});
