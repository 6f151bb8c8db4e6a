import path from 'node:path';
import { from, lastValueFrom, toArray } from 'rxjs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../../src/net/http/client.js';
import { createLimiter } from '../../../src/net/http/limiter.js';
import { send } from '../../../src/net/http/send.js';
import { warcSink } from '../../../src/io/sinks/warc.js';
import { RECORD_VERSION } from '../../../src/store/model/types.js';
import type { Task } from '../../../src/domain/task/types.js';
import { tempDir } from '../../helpers/cli.js';
import { startServer, type TestServer } from '../../helpers/server.js';
import { readWarc } from '../../helpers/warc.js';
import { NOW, sinkContext } from './context.js';

let server: TestServer;
const client = createHttpClient({ userAgent: 'revisit-test', timeoutMs: 5000, acceptEncoding: 'identity', capture: true, maxSockets: 4, hardMaxSockets: 8 });
const deps = { http: client.got, limiter: createLimiter({ concurrency: 4, perHost: 4 }), clock: { now: () => NOW }, random: () => 0.5 };
beforeAll(async () => {
	server = await startServer((req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`body of ${req.url}`));
});
afterAll(async () => {
	client.close();
	await server.close();
});

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
	({ dir, cleanup } = await tempDir('revisit-warc-sink-'));
});
afterEach(() => cleanup());

/** A new URL judged from a real exchange, captured as it crossed the wire. */
async function captured(pathname: string): Promise<Task> {
	const url = server.url(pathname);
	const probe = await send(deps, { retries: 0, retryDelayMs: 1, maxRetryAfterMs: 1000 }, { method: 'GET', url, headers: {} }, new AbortController().signal);
	return {
		line: 1,
		input: url,
		url,
		record: null,
		probe,
		verdict: { url, changed: true, reason: 'new', status: 200 },
		next: { v: RECORD_VERSION, status: 200, lastChecked: NOW },
	};
}

describe('warcSink', () => {
	it('archives the run in a WARC file, complete and readable once the run has ended', async () => {
		const file = path.join(dir, 'run.warc.gz');
		const tasks = [await captured('/a'), await captured('/b')];
		const out = await lastValueFrom(from(tasks).pipe(warcSink({ path: file, info: { software: 'revisit-test' } })(sinkContext().context), toArray()));
		const records = await readWarc(file);
		expect(records.map((record) => record.type)).toEqual(['warcinfo', 'request', 'response', 'request', 'response']);
		expect(records.filter((record) => record.type === 'response').map((record) => record.payload?.toString())).toEqual(['body of /a', 'body of /b']);
		expect(records[0]!.block.toString()).toContain('software: revisit-test');
		expect(out.every((task) => task.next?.warc?.uri === task.url)).toBe(true);
	});

	it('starts a new file once one passes maxSize, given as a size string', async () => {
		const file = path.join(dir, 'run.warc.gz');
		const tasks = [await captured('/a'), await captured('/b')];
		await lastValueFrom(from(tasks).pipe(warcSink({ path: file, maxSize: '1B', info: {} })(sinkContext().context), toArray()));
		const first = await readWarc(file);
		const second = await readWarc(path.join(dir, 'run-00001.warc.gz'));
		expect(first.map((record) => record.type)).toEqual(['warcinfo', 'request', 'response']);
		expect(second.map((record) => record.type)).toEqual(['warcinfo', 'request', 'response']);
	});

	it('refuses a maxSize that is not a size when the sink is made, not at the first record', () => {
		expect(() => warcSink({ path: path.join(dir, 'x.warc.gz'), maxSize: 'huge', info: {} })).toThrow(/must be a size/);
	});
});
