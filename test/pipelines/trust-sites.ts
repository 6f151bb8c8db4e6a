import { createHash } from 'node:crypto';
import type http from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { expect } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { SeenRequest, TestServer } from '../helpers/server.js';
import type { HostStats } from '../../src/hosts/stats.js';
import { trustDefaults } from '../../src/hosts/trust-options.js';
import { LevelStore } from '../../src/store/level.js';
import type { HostRecord } from '../../src/store/types.js';
import { sweepRun, type SweepRun } from './fixtures.js';

/** Pages per fixture site: enough that run 2 crosses the 20-conditional threshold. */
export const PAGES = 30;

/** One server behaviour per fixture site, each on its own server (so its own host record). */
export const BEHAVIOURS = [
	'strong-etag',
	'weak-etag',
	'last-modified',
	'no-validators',
	'rotating-etag',
	'last-modified-now',
	'lying-304',
	'ignores-conditionals',
	'gzip-etag',
	'head-405',
	'head-stale',
	'moved',
	'latin1',
	'busy-503',
	'gone-410',
] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

export interface Site {
	behaviour: Behaviour;
	server: TestServer;
	origin: string;
	/** The URLs to sweep, one per page, in page order. */
	urls: string[];
	/** Edits pages (new body and, where the behaviour has them, new validators); returns their URLs. */
	edit(...pages: number[]): string[];
	/** Deletes pages (`gone-410` answers 410 for them); returns their URLs. */
	remove(...pages: number[]): string[];
	/** Brings deleted pages back, edited; returns their URLs. */
	restore(...pages: number[]): string[];
	/** 503s sent so far (`busy-503`). */
	turnedAway(): number;
}

interface Page {
	version: number;
	deleted: boolean;
}

/** A body for page `i` at `version`; the Latin-1 site's carries bytes 0xE9, 0xE0, 0x93… and declares no charset. */
export function bodyOf(behaviour: Behaviour, i: number, version: number): Buffer {
	if (behaviour === 'latin1') {
		return Buffer.from(`<html><body><p>Caf\u00e9 \u00e0 la cr\u00e8me, na\u00efve fa\u00e7ade \u00ff\u00d8 page ${i}, version ${version}</p></body></html>\n`, 'latin1');
	}
	return Buffer.from(`<html><body><h1>Page ${i}</h1><p>version ${version}</p>${'<p>filler text for a page of a few hundred bytes</p>'.repeat(8)}</body></html>\n`);
}

const strongEtag = (i: number, page: Page): string => `"p${i}-v${page.version}"`;
const FIXED_LM = Date.UTC(2024, 0, 1);
const FAKE_NOW = Date.UTC(2025, 5, 1);

/**
 * The request handler of one behaviour. Pages live at /p/N (the moved site: /old/N
 * answers 301 to /new/N). Every handler answers HEAD like GET (node drops the body)
 * unless the behaviour is about HEAD.
 */
function handlerFor(behaviour: Behaviour, pages: Page[], counts: { busy: number }): http.RequestListener {
	let responses = 0;
	let served = 0;
	const last503 = new Set<string>();
	return (req, res) => {
		const match = /^\/(p|old|new)\/(\d+)$/.exec(req.url ?? '');
		const i = match ? Number(match[2]) : -1;
		const page = pages[i];
		if (!match || !page) return void res.writeHead(404).end();
		if (behaviour === 'moved' && match[1] !== 'new') return void res.writeHead(301, { location: `/new/${i}` }).end();
		if (behaviour === 'busy-503') {
			// Every 7th request is turned away, but never the same page twice running: --retries 2 always gets through.
			served++;
			if (served % 7 === 0 && !last503.has(req.url!)) {
				last503.add(req.url!);
				counts.busy++;
				return void res.writeHead(503, { 'retry-after': '1' }).end('busy');
			}
			last503.delete(req.url!);
		}
		if (behaviour === 'gone-410' && page.deleted) return void res.writeHead(410).end('gone');
		const inm = req.headers['if-none-match'];
		const ims = req.headers['if-modified-since'];
		const body = bodyOf(behaviour, i, page.version);
		const ok = (headers: http.OutgoingHttpHeaders, bytes: Buffer = body): void => {
			res.writeHead(200, { 'content-type': behaviour === 'latin1' ? 'text/html' : 'text/html; charset=utf-8', ...headers }).end(bytes);
		};
		const notModified = (headers: http.OutgoingHttpHeaders): void => void res.writeHead(304, headers).end();
		switch (behaviour) {
			case 'strong-etag':
			case 'moved':
			case 'busy-503':
			case 'gone-410': {
				const etag = strongEtag(i, page);
				return inm === etag ? notModified({ etag }) : ok({ etag });
			}
			case 'weak-etag': {
				const etag = `W/"p${i}-v${page.version}"`;
				// Weak comparison (RFC 9110 §8.8.3.2): W/ is ignored on either side.
				return inm?.replace(/^W\//, '') === etag.slice(2) ? notModified({ etag }) : ok({ etag });
			}
			case 'last-modified': {
				const lastModified = new Date(FIXED_LM + i * 60_000 + page.version * 86_400_000).toUTCString();
				return ims !== undefined && Date.parse(ims) >= Date.parse(lastModified) ? notModified({ 'last-modified': lastModified }) : ok({ 'last-modified': lastModified });
			}
			case 'no-validators':
			case 'latin1':
				return ok({});
			case 'rotating-etag':
				// A new tag on every response, the body unchanged: no If-None-Match can ever match.
				return ok({ etag: `"r${++responses}"` });
			case 'last-modified-now':
				// Last-Modified is "now" (a fake clock a second further on at each response), so it differs every time.
				return ok({ 'last-modified': new Date(FAKE_NOW + ++responses * 1000).toUTCString() });
			case 'lying-304': {
				const etag = strongEtag(i, page);
				// 304 to any If-None-Match at all, edited or not.
				return inm !== undefined ? notModified({ etag }) : ok({ etag });
			}
			case 'ignores-conditionals':
				return ok({ etag: strongEtag(i, page) });
			case 'gzip-etag': {
				// The ETag is a hash of the bytes sent, so it differs per content coding.
				const accepted = String(req.headers['accept-encoding'] ?? '');
				const coding = accepted.includes('br') ? 'br' : accepted.includes('gzip') ? 'gzip' : undefined;
				const bytes = coding === 'br' ? brotliCompressSync(body) : coding === 'gzip' ? gzipSync(body) : body;
				const etag = `"${createHash('sha1').update(bytes).digest('hex').slice(0, 20)}"`;
				const headers = { etag, vary: 'Accept-Encoding', ...(coding ? { 'content-encoding': coding } : {}) };
				return inm === etag ? notModified({ etag }) : ok(headers, bytes);
			}
			case 'head-405': {
				if (req.method === 'HEAD') return void res.writeHead(405, { allow: 'GET' }).end();
				const etag = strongEtag(i, page);
				return inm === etag ? notModified({ etag }) : ok({ etag });
			}
			case 'head-stale': {
				// HEAD is answered by a cache never purged since before the current content: an old
				// ETag, and a 304 to any If-None-Match. Used for change detection, it would hide every edit.
				if (req.method === 'HEAD') return inm !== undefined ? notModified({ etag: `"p${i}-v0"` }) : void res.writeHead(200, { etag: `"p${i}-v0"` }).end();
				const etag = strongEtag(i, page);
				return inm === etag ? notModified({ etag }) : ok({ etag });
			}
		}
	};
}

/**
 * Starts the fixture site of one behaviour on its own server.
 *
 * @example
 * const site = await serveSite(fx.serve, 'strong-etag');
 */
export async function serveSite(serve: (handler: http.RequestListener) => Promise<TestServer>, behaviour: Behaviour, count = PAGES): Promise<Site> {
	const pages: Page[] = Array.from({ length: count }, () => ({ version: 1, deleted: false }));
	const counts = { busy: 0 };
	const server = await serve(handlerFor(behaviour, pages, counts));
	const urls = pages.map((_, i) => server.url(behaviour === 'moved' ? `/old/${i}` : `/p/${i}`));
	return {
		behaviour,
		server,
		origin: server.origin,
		urls,
		edit: (...indices) => indices.map((i) => (pages[i]!.version++, urls[i]!)),
		remove: (...indices) => indices.map((i) => ((pages[i]!.deleted = true), urls[i]!)),
		restore: (...indices) => indices.map((i) => ((pages[i]!.deleted = false), pages[i]!.version++, urls[i]!)),
		turnedAway: () => counts.busy,
	};
}

/** One sweep over every site's URLs, with each site's requests of this run. */
export interface SiteRun extends SweepRun {
	/** Sorted URLs reported changed. */
	changed: string[];
	/** The requests `site` saw during this run. */
	requests(site: Site): SeenRequest[];
	reasonOf(url: string): unknown;
}

export async function sweepSites(dir: string, sites: readonly Site[], extra: readonly string[] = []): Promise<SiteRun> {
	const before = new Map(sites.map((site) => [site, site.server.requests.length]));
	// Interleaved, page by page across sites, as a list spanning many hosts would be.
	const longest = Math.max(...sites.map((site) => site.urls.length));
	const urls = Array.from({ length: longest }, (_, i) => sites.flatMap((site) => site.urls[i] ?? [])).flat();
	const run = await sweepRun(dir, urls, extra);
	// Every fixture behaviour ends in a verdict for every URL: no errors, no usage mistakes.
	expect(run.status, run.stderr).toBe(0);
	expect(run.verdicts).toHaveLength(sites.reduce((sum, site) => sum + site.urls.length, 0));
	return {
		...run,
		changed: run.verdicts.filter((verdict) => verdict.changed === true).map((verdict) => String(verdict.url)).sort(),
		requests: (site) => site.server.requests.slice(before.get(site)),
		reasonOf: (url) => run.verdicts.find((verdict) => verdict.url === url)?.reason,
	};
}

export const sorted = (urls: readonly string[]): string[] => [...urls].sort();

/** Requests that carried If-None-Match / If-Modified-Since. */
export const withInm = (requests: readonly SeenRequest[]): SeenRequest[] => requests.filter((request) => request.headers['if-none-match'] !== undefined);
export const withIms = (requests: readonly SeenRequest[]): SeenRequest[] => requests.filter((request) => request.headers['if-modified-since'] !== undefined);

/** The host's row of `revisit stats --json`. */
export async function statsRow(dir: string, origin: string): Promise<HostStats> {
	const result = await runCli(['stats', '--json', '--store', dir]);
	expect(result.status).toBe(0);
	const rows = result.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as HostStats);
	const row = rows.find((candidate) => candidate.host === origin);
	if (!row) throw new Error(`no stats row for ${origin}: ${result.stdout}`);
	return row;
}

/** The stored host record (for its re-test counter), read with the store closed again after. */
export async function hostRecord(dir: string, origin: string): Promise<HostRecord> {
	const store = await LevelStore.open(dir);
	try {
		const [record] = await store.getHosts([origin]);
		if (!record) throw new Error(`no host record for ${origin}`);
		return record;
	} finally {
		await store.close();
	}
}

/**
 * Re-tests due in a run of `probes` probes of a distrusted host whose counter stood at
 * `since`: one every `retestEvery` (50) probes, counted across runs.
 */
export const retestsDue = (since: number, probes: number): number => Math.floor((since + probes) / trustDefaults.retestEvery);

/**
 * Asserts that the run sent each page's stored validator back, exactly as the previous
 * run's verdict reported it, in `header`, one request per page.
 */
export function expectEchoed(site: Site, previous: SiteRun, current: SiteRun, field: 'etag' | 'lastModified'): void {
	const header = field === 'etag' ? 'if-none-match' : 'if-modified-since';
	const requests = current.requests(site);
	expect(requests).toHaveLength(site.urls.length);
	for (const request of requests) {
		const verdict = previous.verdicts.find((candidate) => candidate.url === site.server.url(request.path));
		expect(verdict?.[field], request.path).toBeTypeOf('string');
		expect(request.headers[header], request.path).toBe(verdict![field]);
	}
}
