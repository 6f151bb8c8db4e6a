import type http from 'node:http';
import { expect } from 'vitest';
import { BEHAVIOURS as DESCRIBED, handlerFor, type Behaviour, type Page } from '../fixtures/trust-handler.js';
import { runCli } from '../helpers/cli.js';
import type { SeenRequest, TestServer } from '../helpers/server.js';
import type { HostStats } from '../../src/net/hosts/stats.js';
import { trustDefaults } from '../../src/net/hosts/trust-options.js';
import { LevelStore } from '../../src/store/level/store.js';
import type { HostRecord } from '../../src/store/model/types.js';
import { sweepRun, type SweepRun } from './fixtures.js';

/** Pages per fixture site: enough that run 2 crosses the 20-conditional threshold. */
export const PAGES = 30;

/** One server behaviour per fixture site, each on its own server (so its own host record); see test/fixtures/trust-handler.js. */
export const BEHAVIOURS = Object.keys(DESCRIBED) as Behaviour[];
export type { Behaviour };
export { bodyOf } from '../fixtures/trust-handler.js';

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

/**
 * Starts the fixture site of one behaviour on its own server.
 *
 * @example
 * const site = await serveSite(fx.serve, 'strong-etag');
 */
export async function serveSite(serve: (handler: http.RequestListener) => Promise<TestServer>, behaviour: Behaviour, count = PAGES): Promise<Site> {
	const pages: Page[] = Array.from({ length: count }, () => ({ version: 1, deleted: false }));
	const counts = { requests: 0, bodies: 0, busy: 0 };
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
		changed: run.verdicts
			.filter((verdict) => verdict.changed === true)
			.map((verdict) => String(verdict.url))
			.sort(),
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
	const rows = result.stdout
		.split('\n')
		.filter(Boolean)
		.map((line) => JSON.parse(line) as HostStats);
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
