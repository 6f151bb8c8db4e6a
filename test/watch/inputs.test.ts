import { appendFile, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createValve } from '../../src/base/flow/valve.js';
import { normaliseSweepOptions } from '../../src/pipelines/normalise-options.js';
import { openSweepDeps } from '../../src/pipelines/resources.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import { systemClock } from '../../src/domain/task/clock.js';
import { watchClock } from '../../src/watch/clock.js';
import { watchInputs, type InputBatch, type WatchInputsDeps, type WatchInputsSpec } from '../../src/watch/inputs.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** Signals a test sends itself: `hup()` calls the listeners `onHup` holds. */
function fakeSignals() {
	const listeners = new Set<() => void>();
	return {
		listeners,
		onHup(listener: () => void) {
			listeners.add(listener);
			return () => void listeners.delete(listener);
		},
		hup: () => listeners.forEach((listener) => listener()),
	};
}

/** Subscribes and keeps what arrives; `until` waits (at most 10 s) for a condition on it, or on anything else. */
function record(inputs: Observable<InputBatch>) {
	const seen = { batches: [] as InputBatch[], completed: false, error: undefined as unknown };
	const subscription = inputs.subscribe({
		next: (batch) => void seen.batches.push(batch),
		error: (error: unknown) => void (seen.error = error),
		complete: () => void (seen.completed = true),
	});
	const until = <T>(what: string, found: () => T | undefined): Promise<T> =>
		new Promise((resolve, reject) => {
			const started = Date.now();
			const check = () => {
				const value = found();
				if (value !== undefined) return resolve(value);
				if (Date.now() - started > 10_000) return reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(seen.batches.map(texts))}`));
				setTimeout(check, 5);
			};
			check();
		});
	return { seen, until, unsubscribe: () => subscription.unsubscribe() };
}

const texts = (batch: InputBatch) => ({
	source: batch.source,
	generation: batch.generation,
	complete: batch.complete,
	lines: batch.lines.map((line) => line.text),
});

/** The readings of `source` (its batches joined per generation), in order. */
function readings(batches: InputBatch[], source: string) {
	const byGeneration = new Map<number, { generation: number; urls: string[]; complete: boolean; batches: number }>();
	for (const batch of batches.filter((b) => b.source === source)) {
		const reading = byGeneration.get(batch.generation) ?? { generation: batch.generation, urls: [], complete: false, batches: 0 };
		reading.urls.push(...batch.lines.map((line) => line.text));
		reading.complete ||= batch.complete;
		reading.batches++;
		byGeneration.set(batch.generation, reading);
	}
	return [...byGeneration.values()];
}

const spec = (more: Partial<WatchInputsSpec>): WatchInputsSpec => ({ urls: [], files: [], sitemaps: [], sitemapEveryMs: 86_400_000, ...more });
const baseDeps = (more: Partial<WatchInputsDeps> = {}): WatchInputsDeps => ({
	signals: fakeSignals(),
	clock: systemClock,
	wallMs: (ms) => ms,
	diagnose: () => {},
	...more,
});

describe('watchInputs: --input files', () => {
	let dir: string;
	beforeEach(async () => {
		dir = await mkdtemp(path.join(os.tmpdir(), 'revisit-inputs-'));
	});
	afterEach(() => rm(dir, { recursive: true, force: true }));

	it('reads a file again when it is appended to, has a line removed, or is replaced by a rename; each reading numbered higher and complete', async () => {
		const file = path.join(dir, 'urls.txt');
		await writeFile(file, 'https://example.org/a\n# a comment\n\nhttps://example.org/b\nnot\0a url\n');
		const run = record(watchInputs(spec({ files: [file] }), baseDeps()));
		try {
			const lastReading = (urls: string[]) => () => {
				const last = readings(run.seen.batches, file).at(-1);
				return last?.complete && JSON.stringify(last.urls) === JSON.stringify(urls) ? last : undefined;
			};
			const first = await run.until('the first reading', lastReading(['https://example.org/a', 'https://example.org/b', 'not\\0a url']));
			// Lines keep their number and source, and a NUL is a problem of the line, as sweep reads them.
			expect(run.seen.batches.flatMap((batch) => batch.lines)).toEqual([
				{ line: 1, text: 'https://example.org/a', source: file },
				{ line: 4, text: 'https://example.org/b', source: file },
				{ line: 5, text: 'not\\0a url', source: file, problem: 'line contains a NUL byte' },
			]);

			await appendFile(file, 'https://example.org/c\n');
			const appended = await run.until(
				'the reading after an append',
				lastReading(['https://example.org/a', 'https://example.org/b', 'not\\0a url', 'https://example.org/c']),
			);

			await writeFile(file, 'https://example.org/a\nhttps://example.org/c\n');
			const removed = await run.until('the reading after a line was removed', lastReading(['https://example.org/a', 'https://example.org/c']));

			const replacement = path.join(dir, '.urls.txt.swp');
			await writeFile(replacement, 'https://example.org/d\nhttps://example.org/a\n');
			await rename(replacement, file);
			const renamed = await run.until('the reading after a rename', lastReading(['https://example.org/d', 'https://example.org/a']));

			expect(first.generation).toBeLessThan(appended.generation);
			expect(appended.generation).toBeLessThan(removed.generation);
			expect(removed.generation).toBeLessThan(renamed.generation);
			// Only the last batch of a reading says it is complete.
			for (const generation of [first, appended, removed, renamed].map((reading) => reading.generation)) {
				const ofReading = run.seen.batches.filter((batch) => batch.generation === generation);
				expect(ofReading.map((batch) => batch.complete)).toEqual([...ofReading.slice(1).map(() => false), true]);
			}
			expect(run.seen.error).toBeUndefined();
		} finally {
			run.unsubscribe();
		}
	});

	it('reads every file again on SIGHUP, and stops listening when unsubscribed', async () => {
		const file = path.join(dir, 'urls.txt');
		await writeFile(file, 'https://example.org/a\n');
		const signals = fakeSignals();
		const watchers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'FSEventWrap').length;
		const before = watchers();
		const run = record(watchInputs(spec({ files: [file] }), baseDeps({ signals })));
		try {
			await run.until('the first reading', () => readings(run.seen.batches, file).find((reading) => reading.complete));
			expect(watchers()).toBe(before + 1);
			signals.hup();
			const [first, second] = await run.until('a second reading', () => {
				const done = readings(run.seen.batches, file).filter((reading) => reading.complete);
				return done.length >= 2 ? done : undefined;
			});
			expect(second!.urls).toEqual(['https://example.org/a']);
			expect(second!.generation).toBeGreaterThan(first!.generation);
		} finally {
			run.unsubscribe();
		}
		expect(signals.listeners.size).toBe(0);
		// A closed watcher's handle goes once libuv has closed it, a turn or two later.
		await run.until('the watcher closed', () => (watchers() === before ? true : undefined));
	});

	it('fails with SOURCE_FAILED when a file cannot be read at the start; later, one that went missing only is diagnosed and sweeps nothing out', async () => {
		const missing = record(watchInputs(spec({ files: [path.join(dir, 'missing.txt')] }), baseDeps()));
		const error = await missing.until('the error', () => missing.seen.error);
		expect(error).toMatchObject({ code: 'SOURCE_FAILED', message: expect.stringContaining('missing.txt: cannot read URLs') });

		const file = path.join(dir, 'urls.txt');
		await writeFile(file, 'https://example.org/a\n');
		const signals = fakeSignals();
		const problems: string[] = [];
		const run = record(watchInputs(spec({ files: [file] }), baseDeps({ signals, diagnose: (message) => problems.push(message) })));
		try {
			await run.until('the first reading', () => readings(run.seen.batches, file).find((reading) => reading.complete));
			await rm(file);
			signals.hup();
			await run.until('a diagnostic', () => problems[0]);
			expect(problems[0]).toContain(`${file}: cannot read URLs`);
			expect(readings(run.seen.batches, file).filter((reading) => reading.complete)).toHaveLength(1);
			expect(run.seen.error).toBeUndefined();
		} finally {
			run.unsubscribe();
		}
	});
});

describe('watchInputs: arguments and stdin', () => {
	it('reads stdin in batches of at most 1000 lines; its end does not complete the watch, and neither input ever sweeps out', async () => {
		const stdin = new PassThrough();
		const signals = fakeSignals();
		const dir = await mkdtemp(path.join(os.tmpdir(), 'revisit-inputs-'));
		const file = path.join(dir, 'urls.txt');
		await writeFile(file, 'https://example.org/file\n');
		const run = record(watchInputs(spec({ urls: ['https://example.org/arg', 'junk'], stdin, files: [file] }), baseDeps({ signals })));
		try {
			stdin.end(Array.from({ length: 2500 }, (_, i) => `https://example.org/${i}\n`).join(''));
			const stdinLines = () => run.seen.batches.filter((batch) => batch.source === 'stdin').flatMap((batch) => batch.lines);
			await run.until('all of stdin', () => (stdinLines().length === 2500 ? true : undefined));
			expect(stdinLines().map((line) => line.line)).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
			expect(stdinLines().every((line) => line.source === 'stdin')).toBe(true);
			const ofStdin = run.seen.batches.filter((batch) => batch.source === 'stdin');
			expect(Math.max(...ofStdin.map((batch) => batch.lines.length))).toBeLessThanOrEqual(1000);
			expect(new Set(ofStdin.map((batch) => batch.generation)).size).toBe(1);

			// After stdin's end the watch goes on: a SIGHUP still reads the file.
			signals.hup();
			await run.until('a second reading of the file', () =>
				readings(run.seen.batches, file).filter((reading) => reading.complete).length >= 2 ? true : undefined,
			);
			expect(run.seen.completed).toBe(false);
			expect(readings(run.seen.batches, 'args')).toEqual([
				{ generation: expect.any(Number), urls: ['https://example.org/arg', 'junk'], complete: false, batches: 1 },
			]);
			expect(ofStdin.some((batch) => batch.complete)).toBe(false);
		} finally {
			run.unsubscribe();
			await rm(dir, { recursive: true, force: true });
		}
	});

	it('says once every first reading is in (stdin at its end), after their batches, each reading ending with a last batch', async () => {
		const stdin = new PassThrough();
		const dir = await mkdtemp(path.join(os.tmpdir(), 'revisit-inputs-'));
		const file = path.join(dir, 'urls.txt');
		await writeFile(file, 'https://example.org/file\n');
		const run = record(watchInputs(spec({ urls: ['https://example.org/arg'], stdin, files: [file] }), baseDeps()));
		try {
			stdin.write('https://example.org/typed\n');
			await run.until('the line typed on stdin', () =>
				run.seen.batches.some((batch) => batch.source === 'stdin' && batch.lines.length > 0) ? true : undefined,
			);
			await run.until('the file', () => (run.seen.batches.some((batch) => batch.source === file && batch.last) ? true : undefined));
			// stdin has not ended: its first reading is not over.
			expect(run.seen.batches.some((batch) => batch.settled)).toBe(false);
			stdin.end();
			const settled = await run.until('the settled batch', () => {
				const at = run.seen.batches.findIndex((batch) => batch.settled);
				return at < 0 ? undefined : at;
			});
			expect(settled).toBe(run.seen.batches.length - 1);
			expect(run.seen.batches[settled]).toMatchObject({ lines: [], complete: false });
			for (const source of ['args', 'stdin', file]) expect(run.seen.batches.filter((batch) => batch.source === source).at(-1)?.last).toBe(true);
		} finally {
			run.unsubscribe();
			await rm(dir, { recursive: true, force: true });
		}
	});

	it('a SIGHUP with no file or sitemap to read again says so', async () => {
		const signals = fakeSignals();
		const said: string[] = [];
		const run = record(watchInputs(spec({ urls: ['https://example.org/arg'] }), baseDeps({ signals, diagnose: (line) => void said.push(line) })));
		try {
			signals.hup();
			expect(said).toEqual(['SIGHUP: nothing to read again (no --input file or --sitemap)']);
		} finally {
			run.unsubscribe();
		}
	});

	it('takes one credit of the valve per batch, so a long input waits for its batches to be applied', async () => {
		const stdin = new PassThrough();
		const valve = createValve(1);
		const run = record(watchInputs(spec({ stdin }), baseDeps({ valve })));
		try {
			stdin.end(Array.from({ length: 3000 }, (_, i) => `https://example.org/${i}\n`).join(''));
			await run.until('a batch', () => run.seen.batches[0]);
			await new Promise((resolve) => setTimeout(resolve, 50));
			expect(run.seen.batches).toHaveLength(1);
			let lines = run.seen.batches[0]!.lines.length;
			while (lines < 3000) {
				const count = run.seen.batches.length;
				valve.release();
				await run.until('the next batch', () => (run.seen.batches.length > count ? true : undefined));
				lines += run.seen.batches.at(-1)!.lines.length;
			}
			expect(lines).toBe(3000);
		} finally {
			run.unsubscribe();
		}
	});
});

describe('watchInputs: sitemaps', () => {
	let server: TestServer;
	const site = { status: 200, pages: ['/a', '/b'] };
	beforeEach(async () => {
		site.status = 200;
		site.pages = ['/a', '/b'];
		server = await startServer((req, res) => {
			if (req.url === '/sitemap.xml') {
				return void res.end(
					`<?xml version="1.0"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<sitemap><loc>${server.url('/pages.xml')}</loc>` +
						`</sitemap>\n</sitemapindex>`,
				);
			}
			if (req.url === '/pages.xml' && site.status === 200) {
				const entries = site.pages.map((page) => `<url><loc>${server.url(page)}</loc><lastmod>2026-01-02</lastmod></url>`);
				return void res.end(`<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>`);
			}
			res.writeHead(req.url === '/pages.xml' ? site.status : 404).end('no');
		});
	});
	afterEach(() => server.close());

	it('reads a sitemap index again after its interval on the schedule clock, and a sitemap answering 500 sweeps nothing out', async () => {
		const options = normaliseSweepOptions({ retries: 0 });
		const { deps, close } = await openSweepDeps({ store: new MemoryStore() }, options);
		// An hour of schedule time between readings, run at 36000x: 100 ms of wall time.
		const clock = watchClock({ scale: 36_000 });
		const problems: string[] = [];
		const root = server.url('/sitemap.xml');
		const run = record(
			watchInputs(
				spec({ sitemaps: [root], sitemapEveryMs: 3_600_000 }),
				baseDeps({ clock, wallMs: clock.wallMs, http: { deps, retry: options }, diagnose: (message) => problems.push(message) }),
			),
		);
		try {
			const first = await run.until('the first reading', () => readings(run.seen.batches, root).find((reading) => reading.complete));
			expect(first.urls).toEqual([server.url('/a'), server.url('/b')]);
			expect(run.seen.batches[0]!.lines[0]).toEqual({ line: 3, text: server.url('/a'), source: server.url('/pages.xml'), from: root, lastmod: '2026-01-02' });

			site.pages = ['/a', '/c'];
			const later = await run.until('a reading after the change', () =>
				readings(run.seen.batches, root).find((reading) => reading.complete && reading.urls.includes(server.url('/c'))),
			);
			expect(later.generation).toBeGreaterThan(first.generation);
			expect(later.urls).toEqual([server.url('/a'), server.url('/c')]);

			site.status = 500;
			await run.until('a diagnostic', () => problems.find((message) => message.includes('500')));
			const after = run.seen.batches.length;
			await run.until('two more readings', () => (new Set(run.seen.batches.slice(after).map((batch) => batch.generation)).size >= 2 ? true : undefined));
			expect(problems).toContain(`sitemap ${server.url('/pages.xml')}: could not be fetched: HTTP_500: server answered 500`);
			expect(problems).toContain(`sitemap ${root}: not read in full, so none of its URLs leave the schedule`);
			expect(run.seen.batches.slice(after).filter((batch) => batch.source === root && batch.complete)).toEqual([]);
		} finally {
			run.unsubscribe();
			await close();
		}
	});

	it('leaves no timer, watcher or signal listener behind once unsubscribed', async () => {
		const options = normaliseSweepOptions({ retries: 0 });
		const { deps, close } = await openSweepDeps({ store: new MemoryStore() }, options);
		const dir = await mkdtemp(path.join(os.tmpdir(), 'revisit-inputs-'));
		const file = path.join(dir, 'urls.txt');
		await writeFile(file, 'https://example.org/a\n');
		const handles = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout' || kind === 'FSEventWrap').length;
		const before = handles();
		const signals = fakeSignals();
		const root = server.url('/sitemap.xml');
		// A day between readings, in wall time: a timer left behind would hold the process that long.
		const run = record(
			watchInputs(spec({ files: [file], sitemaps: [root], sitemapEveryMs: 86_400_000 }), baseDeps({ signals, http: { deps, retry: options } })),
		);
		try {
			await run.until('both inputs read', () =>
				readings(run.seen.batches, root).some((r) => r.complete) && readings(run.seen.batches, file).some((r) => r.complete) ? true : undefined,
			);
			expect(handles()).toBeGreaterThanOrEqual(before + 2);
		} finally {
			run.unsubscribe();
			await close();
			await rm(dir, { recursive: true, force: true });
		}
		expect(signals.listeners.size).toBe(0);
		await run.until('the handles gone', () => (handles() <= before ? true : undefined));
	});
});
