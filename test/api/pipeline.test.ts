import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, createPipeline, fetch, MemoryStore, run, stages, type PipelineConfig } from '../../src/index.js';
import { tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('createPipeline(), run() and fetch() (library)', () => {
	let server: TestServer;
	let work: { dir: string; cleanup(): Promise<void> };
	beforeEach(async () => {
		server = await startServer((req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`page ${req.url}`));
		work = await tempDir('revisit-api-');
	});
	afterEach(async () => {
		await server.close();
		await work.cleanup();
	});
	const collect = () => {
		const stream = new PassThrough();
		let text = '';
		stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
		return { stream, text: () => text };
	};

	it('builds a pipeline from a config object: verdicts$ emits the verdicts, the sinks get their lines, run() resolves to the counts', async () => {
		const store = new MemoryStore();
		const stdout = collect();
		const config: PipelineConfig = {
			source: [{ type: 'urls', urls: [server.url('/a'), 'nope'] }, { type: 'stdin' }],
			stages: [{ use: 'probe', concurrency: 2, audit: 0 }],
			sinks: [{ type: 'stdout', format: 'ndjson', when: 'all' }],
		};
		const diagnostics: string[] = [];
		const pipeline = createPipeline(config, {
			store,
			stdin: Readable.from([`${server.url('/b')}\n`]),
			stdout: stdout.stream,
			diagnose: (text) => diagnostics.push(text),
		});
		const verdicts = await lastValueFrom(pipeline.verdicts$.pipe(toArray()));
		expect(verdicts.map((verdict) => [verdict.url, verdict.reason]).sort()).toEqual([
			[server.url('/a'), 'new'],
			[server.url('/b'), 'new'],
			['nope', 'error'],
		]);
		expect(verdicts.find((verdict) => verdict.url === 'nope')).toMatchObject({ error: { code: 'BAD_INPUT', message: 'urls line 2: not an absolute URL' } });
		expect(diagnostics).toEqual(['urls line 2: not an absolute URL: "nope"']);
		expect(
			stdout
				.text()
				.split('\n')
				.filter(Boolean)
				.map((line) => JSON.parse(line).url),
		).toEqual([server.url('/a'), server.url('/b')]);

		const again = createPipeline({ ...config, source: { type: 'urls', urls: [server.url('/a')] } }, { store, stdout: stdout.stream, diagnose: () => {} });
		expect(await again.run()).toMatchObject({ urls: 1, changed: 0, sameHash: 1, errors: 0 });
		const runs = [];
		for await (const entry of store.runEntries()) runs.push(entry);
		expect(runs).toHaveLength(2);
	});

	it('throws a ConfigError listing every problem before anything runs', () => {
		expect(() => createPipeline({ source: { type: 'urls', urls: [] }, sinks: [{ type: 'stdout', when: 'sometimes' }] } as never)).toThrow(ConfigError);
		try {
			createPipeline({ source: { type: 'file' }, sinks: [] } as never);
		} catch (error) {
			expect((error as ConfigError).problems).toEqual([
				'pipeline: /source: missing "path": a file source needs it',
				'pipeline: /sinks: must list at least one sink',
			]);
		}
		expect(server.requests).toHaveLength(0);
	});

	it('take a store directory or an opened store, and refuse anything else when called with a RevisitError (USAGE)', () => {
		for (const store of [{}, { getMany: () => [] }, 42, '']) {
			expect(() => createPipeline({ source: { type: 'stdin' }, sinks: [{ type: 'stdout' }] }, { store } as never)).toThrow(
				expect.objectContaining({ code: 'USAGE', message: expect.stringMatching(/^`store` (must be|is empty)/) }),
			);
			expect(() => fetch([server.url('/a')], { store } as never)).toThrow(
				expect.objectContaining({ code: 'USAGE', message: expect.stringMatching(/^`store` (must be|is empty)/) }),
			);
		}
		expect(server.requests).toHaveLength(0);
	});

	it('refuses a watch-mode pipeline, which never ends: revisit run runs it', () => {
		expect(() => createPipeline({ mode: 'watch', source: { type: 'urls', urls: [server.url('/a')] }, sinks: [{ type: 'stdout' }] })).toThrow(
			'pipeline: /mode: createPipeline runs a pipeline once; a watch-mode pipeline runs with revisit run FILE',
		);
		expect(server.requests).toHaveLength(0);
	});

	it('run() takes a pipeline file, with --set style overrides, and reads JSON array files with their line numbers', async () => {
		await writeFile(path.join(work.dir, 'urls.json'), `[\n  ${JSON.stringify(server.url('/a'))},\n  42\n]\n`);
		await writeFile(
			path.join(work.dir, 'pipeline.json'),
			JSON.stringify({
				store: { type: 'memory' },
				source: { type: 'file', path: path.join(work.dir, 'urls.json') },
				sinks: [{ type: 'file', path: path.join(work.dir, 'out.txt') }],
			}),
		);
		const diagnostics: string[] = [];
		const summary = await run(path.join(work.dir, 'pipeline.json'), { set: ['sinks.0.when=all'], diagnose: (text) => diagnostics.push(text) });
		expect(summary).toMatchObject({ urls: 1, changed: 1, rejected: 1 });
		expect(diagnostics).toEqual([`${path.join(work.dir, 'urls.json')} line 3: entry is not a string: "42"`]);
		expect(await readFile(path.join(work.dir, 'out.txt'), 'utf8')).toBe(`${server.url('/a')}\n`);
		await expect(run(path.join(work.dir, 'pipeline.json'), { set: ['whence=x'] })).rejects.toThrow('--set whence=x: whence is neither a pipeline key');
		// when is the compare stage's condition: a bad one is refused with what is wrong with it.
		await expect(run(path.join(work.dir, 'pipeline.json'), { set: ['when=x'] })).rejects.toThrow(
			'--set when=x: /stages/0/when: must be a condition such as changed_words > 3 or price < 40 (got "x": unknown name `x`',
		);
	});

	it('fetch() downloads bodies: on the verdict, or into a directory', async () => {
		const verdicts = await lastValueFrom(fetch([server.url('/a')], { store: new MemoryStore() }).pipe(toArray()));
		expect(verdicts).toEqual([expect.objectContaining({ url: server.url('/a'), changed: true, reason: 'new', contentType: 'text/plain' })]);
		expect(verdicts[0]!.body?.toString()).toBe('page /a');
		const out = path.join(work.dir, 'pages');
		const written = await lastValueFrom(fetch([server.url('/b')], { store: new MemoryStore(), out }).pipe(toArray()));
		expect(written[0]!.body).toBeUndefined();
		const [entry] = (await readFile(path.join(out, 'index.ndjson'), 'utf8'))
			.split('\n')
			.filter(Boolean)
			.map((line) => JSON.parse(line));
		expect(await readFile(path.join(out, entry.file), 'utf8')).toBe('page /b');
	});

	it('exports the stages a pipeline file names, for hand-made pipelines', () => {
		for (const name of [
			'normalise',
			'dedupe',
			'filter',
			'lookup',
			'due',
			'probe',
			'compare',
			'schedule',
			'trust',
			'churnGuard',
			'fetchBodies',
			'writeBodies',
			'emit',
			'commit',
			'readLines',
		]) {
			expect(typeof (stages as Record<string, unknown>)[name], name).toBe('function');
		}
	});
});
