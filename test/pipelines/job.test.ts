import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fetchOptions } from '../../src/pipelines/fetch.js';
import { runJob, type Job, type JobEdges } from '../../src/pipelines/job.js';
import { normaliseSweepOptions } from '../../src/pipelines/normalise-options.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** Edges that collect what a run writes, in order. */
function collecting(stdin = ''): JobEdges & { lines: string[]; diagnostics: string[] } {
	const lines: string[] = [];
	const diagnostics: string[] = [];
	return {
		lines,
		diagnostics,
		stdin: Readable.from([stdin]),
		stdout: new PassThrough(),
		stderr: new PassThrough(),
		env: {},
		out: async (text) => void lines.push(text),
		diagnose: (text) => void diagnostics.push(text),
	};
}

const never = new Promise<string>(() => {});

describe('runJob: a whole run in the pipeline layer, no CLI', () => {
	let server: TestServer;
	let body = 'v1';
	beforeEach(async () => {
		body = 'v1';
		server = await startServer((req, res) => {
			if (req.url === '/bad') return void res.writeHead(500).end();
			res.setHeader('ETag', `"${body}"`);
			if (req.headers['if-none-match'] === `"${body}"`) return void res.writeHead(304).end();
			res.end(`page ${body}`);
		});
	});
	afterEach(() => server.close());

	it('sweeps argument URLs, prints the changed ones, and commits their validators', async () => {
		const store = new MemoryStore();
		const job: Job = {
			phase: 'sweep',
			options: normaliseSweepOptions({ retries: 0 }),
			store,
			urls: [server.url('/a'), server.url('/b')],
			emit: { format: 'lines' },
		};
		const first = collecting();
		const { summary, done } = runJob(job, first, never);
		expect(await done).toBeUndefined();
		expect(first.lines.sort()).toEqual([`${server.url('/a')}\n`, `${server.url('/b')}\n`]);
		expect(summary).toMatchObject({ urls: 2, changed: 2, errors: 0 });
		const [stored] = await store.getMany([server.url('/a')]);
		expect(stored?.etag).toBe('"v1"');

		const second = collecting();
		await runJob(job, second, never).done;
		expect(second.lines).toEqual([]);
		expect(server.seen('/a').at(-1)?.headers['if-none-match']).toBe('"v1"');
	});

	it('reads stdin when no URL is given, and reports a failed URL as a diagnostic, not a stream error', async () => {
		const edges = collecting(`${server.url('/a')}\n${server.url('/bad')}\n`);
		const { summary, done } = runJob(
			{ phase: 'sweep', options: normaliseSweepOptions({ retries: 0 }), store: new MemoryStore(), emit: { format: 'ndjson', all: true } },
			edges,
			never,
		);
		await done;
		const verdicts = edges.lines.map((line) => JSON.parse(line) as { url: string; reason: string });
		expect(verdicts.map((verdict) => verdict.reason).sort()).toEqual(['error', 'new']);
		expect(summary.errors).toBe(1);
		expect(edges.diagnostics.join('\n')).toContain('/bad');
	});

	it('fetches into a directory and prints a changed URL only once its body is there', async () => {
		const dir = await mkdtemp(path.join(tmpdir(), 'revisit-job-'));
		try {
			const edges = collecting();
			let bodyOnDisk: string | undefined;
			const out = edges.out;
			edges.out = async (text) => {
				bodyOnDisk = await readFile(path.join(dir, 'index.ndjson'), 'utf8').catch(() => undefined);
				return out(text);
			};
			await runJob(
				{
					phase: 'fetch',
					options: fetchOptions({ retries: 0 }),
					store: new MemoryStore(),
					urls: [server.url('/a')],
					bodies: { dir },
					emit: { format: 'lines' },
				},
				edges,
				never,
			).done;
			expect(edges.lines).toEqual([`${server.url('/a')}\n`]);
			expect(bodyOnDisk).toContain(server.url('/a'));
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});

	it('stops when asked, resolves to the signal, and commits nothing it did not print', async () => {
		const slow = await startServer(() => {});
		try {
			const store = new MemoryStore();
			const edges = collecting();
			const stopped = await runJob(
				{ phase: 'sweep', options: normaliseSweepOptions({ retries: 0 }), store, urls: [slow.url('/hangs')], emit: { format: 'lines' } },
				edges,
				new Promise((resolve) => setTimeout(() => resolve('SIGTERM'), 200)),
			).done;
			expect(stopped).toBe('SIGTERM');
			expect(edges.lines).toEqual([]);
			expect(await store.getMany([slow.url('/hangs')])).toEqual([undefined]);
		} finally {
			await slow.close();
		}
	});

	it('leaves the options it was given as they were', async () => {
		const options = normaliseSweepOptions({ retries: 0 });
		const before = JSON.stringify(options);
		const job: Job = { phase: 'sweep', options, store: new MemoryStore(), urls: [server.url('/a')], emit: { format: 'lines' } };
		await runJob(job, collecting(), never).done;
		expect(JSON.stringify(options)).toBe(before);
		expect(Object.keys(job).sort()).toEqual(['emit', 'options', 'phase', 'store', 'urls']);
	});
});
