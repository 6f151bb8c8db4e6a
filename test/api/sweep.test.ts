import { lastValueFrom, of, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import path from 'node:path';
import { EXIT, exitStatusFor, MemoryStore, OptionError, pageVersions, RevisitError, sweep, versionText } from '../../src/index.js';
import { tempDir } from '../helpers/cli.js';
import { loadReport } from '../../src/io/report/data.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('sweep() (library)', () => {
	let server: TestServer;
	beforeEach(async () => {
		server = await startServer((req, res) => res.end(`page ${req.url}`));
	});
	afterEach(() => server.close());

	it('takes an array, an async iterable or an Observable, and emits one verdict per distinct URL', async () => {
		const store = new MemoryStore();
		const urls = [server.url('/a'), server.url('/b'), server.url('/a')];
		async function* generate() {
			yield* urls;
		}
		for (const source of [urls, generate(), of(...urls)]) {
			const verdicts = await lastValueFrom(sweep(source, { store }).pipe(toArray()));
			expect(verdicts.map((v) => v.url).sort()).toEqual([server.url('/a'), server.url('/b')]);
		}
		expect(server.seen('/a')).toHaveLength(3);
	});

	it('reports bad input as an error verdict with code BAD_INPUT', async () => {
		const verdicts = await lastValueFrom(sweep(['nope'], { store: new MemoryStore() }).pipe(toArray()));
		expect(verdicts).toEqual([{ url: 'nope', changed: false, reason: 'error', error: { code: 'BAD_INPUT', message: 'line 1: not an absolute URL' } }]);
	});

	it('commits a verdict only after the subscriber has handled it', async () => {
		const events: string[] = [];
		const memory = new MemoryStore();
		const store = Object.assign(Object.create(memory) as MemoryStore, {
			batch: async (operations: Parameters<MemoryStore['batch']>[0]) => {
				events.push(...operations.map((op) => `commit ${op.key}`));
				return memory.batch(operations);
			},
			getMany: (keys: string[]) => memory.getMany(keys),
			getHosts: (origins: string[]) => memory.getHosts(origins),
			runEntries: () => memory.runEntries(),
			getTexts: (keys: string[]) => memory.getTexts(keys),
			getVersions: (keys: string[]) => memory.getVersions(keys),
		});
		await new Promise((resolve, reject) =>
			sweep([server.url('/a'), server.url('/b')], { store }).subscribe({
				next: (verdict) => events.push(`next ${verdict.url}`),
				error: reject,
				complete: () => resolve(undefined),
			}),
		);
		for (const url of [server.url('/a'), server.url('/b')]) {
			expect(events.indexOf(`next ${url}`)).toBeGreaterThanOrEqual(0);
			expect(events.indexOf(`commit ${url}`)).toBeGreaterThan(events.indexOf(`next ${url}`));
		}
		expect((await memory.getMany([server.url('/a')]))[0]).toMatchObject({ status: 200 });
	});

	it('keeps the run row and its detail as the CLI does, so that a report can be written after a library run', async () => {
		const store = new MemoryStore();
		await lastValueFrom(sweep([server.url('/a'), server.url('/b')], { store }).pipe(toArray()));
		const data = await loadReport(store, { runs: 1 }, 'memory');
		expect(data.summary).toMatchObject({ runs: 1, urls: 2, changed: 2 });
		expect(data.changes.map((change) => change.text)).toEqual(['first-sight', 'first-sight']);
		const texts = [];
		for await (const entry of store.textEntries()) texts.push(entry);
		expect(texts.length).toBeGreaterThan(0);
	});

	it('validates options when called, with a TypeError naming the option', () => {
		expect(() => sweep([], { concurrency: 0 })).toThrow('`concurrency`');
	});

	it('refuses a bad or unknown option with an OptionError: a RevisitError whose code is OPTION_INVALID and whose option names it', () => {
		const thrown = (options: object): unknown => {
			try {
				sweep([], options as never);
			} catch (error) {
				return error;
			}
			return undefined;
		};
		for (const [options, option] of [
			[{ concurrency: 0 }, 'concurrency'],
			[{ method: 'post' }, 'method'],
			[{ perhost: 2 }, 'perhost'],
			[{ trust: { auditrate: 0.5 } }, 'trust.auditrate'],
		] as const) {
			const error = thrown(options);
			expect(error).toBeInstanceOf(RevisitError);
			expect(error).toBeInstanceOf(OptionError);
			expect(error).toMatchObject({ name: 'OptionError', code: 'OPTION_INVALID', option });
			expect(exitStatusFor(error)).toBe(EXIT.usage);
		}
	});

	it.each([
		[
			{ select: ['main'] },
			'Unknown sweep option `select`: content rules go in `rules`, ' +
				"a list of rule objects as a rules file holds them (the CLI's --select main --text is rules: [{ select: ['main'], text: true }])",
		],
		[{ timeout: 5 }, 'Unknown sweep option `timeout`: did you mean `timeoutMs` (milliseconds; --timeout is in seconds)?'],
		[{ perhost: 2 }, 'Unknown sweep option `perhost`: did you mean `perHost`?'],
		[{ 'per-host': 2 }, 'Unknown sweep option `per-host`: did you mean `perHost`?'],
		[{ trust: { auditrate: 0.5 } }, 'Unknown trust option `auditrate`: did you mean `auditRate`?'],
	])('refuses an option it does not take (%j), naming the one meant', (options, message) => {
		expect(() => sweep([server.url('/a')], options as never)).toThrow(message);
		expect(server.requests).toHaveLength(0);
	});

	it('takes a store directory or an opened store, and refuses anything else when called with a RevisitError (USAGE), sending nothing', async () => {
		for (const store of [{}, { getMany: () => [] }, 42, '']) {
			expect(() => sweep([server.url('/a')], { store } as never)).toThrow(
				expect.objectContaining({
					code: 'USAGE',
					message: expect.stringMatching(
						/^`store` (must be a store directory, a redis:\/\/ URL or an opened store|is empty: give a store directory or a redis:\/\/ URL)/,
					),
				}),
			);
		}
		expect(server.requests).toHaveLength(0);
		const work = await tempDir();
		try {
			const dir = path.join(work.dir, 'store');
			await lastValueFrom(sweep([server.url('/a')], { store: dir, keepVersions: 5 }).pipe(toArray()));
			// The directory was closed after the run: opening it for the read below works, and reads what the sweep kept.
			expect((await pageVersions(dir, server.url('/a'))).map((version) => version.reason)).toEqual(['new']);
			expect(await versionText(dir, server.url('/a'), 1)).toBe('page /a');
		} finally {
			await work.cleanup();
		}
	});

	it('takes content rules as `rules`, the documented spelling of --select', async () => {
		let visit = 0;
		const noisy = await startServer((_req, res) => res.end(`<html><body><main>price 10</main><aside>visit ${++visit}</aside></body></html>`));
		try {
			const store = new MemoryStore();
			const twice = async () => (await lastValueFrom(sweep([noisy.url('/p')], { store, rules: [{ select: ['main'] }] }).pipe(toArray())))[0]!;
			expect((await twice()).reason).toBe('new');
			expect(await twice()).toMatchObject({ changed: false, reason: 'same-content' });
		} finally {
			await noisy.close();
		}
	});
});
