import { existsSync } from 'node:fs';
import path from 'node:path';
import { from, lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { send } from '../../src/net/http/send.js';
import { writeWarc } from '../../src/stages/write-warc.js';
import { RECORD_VERSION, type UrlRecord } from '../../src/store/model/types.js';
import type { Task, Verdict } from '../../src/domain/task/types.js';
import { warcDigest } from '../../src/outputs/warc/digest.js';
import { openWarcWriter, type WarcWriter } from '../../src/outputs/warc/writer.js';
import { tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { readWarc } from '../helpers/warc.js';
import { fixedClock, NOW, noRetries, sendDeps } from './deps.js';

const LM = 'Mon, 01 Jan 2024 00:00:00 GMT';
let server: TestServer;
const deps = sendDeps({ client: { capture: true } });
beforeAll(async () => {
	server = await startServer((req, res) => {
		if (req.headers['if-none-match'] === '"v1"') return void res.writeHead(304, { etag: '"v1"', 'last-modified': LM }).end();
		res.writeHead(200, { etag: '"v1"', 'last-modified': LM, 'content-type': 'text/plain' }).end('archived body');
	});
});
afterAll(async () => {
	deps.close();
	await server.close();
});

let dir: string;
let cleanup: () => Promise<void>;
let file: string;
let writer: WarcWriter;
beforeEach(async () => {
	({ dir, cleanup } = await tempDir('revisit-warc-'));
	file = path.join(dir, 'run.warc.gz');
	writer = openWarcWriter({ path: file, info: { software: 'revisit-test' }, now: fixedClock.now });
});
afterEach(async () => {
	writer.close();
	await cleanup();
});

/** A task judged from a real exchange with the test server, captured as it crossed the wire. */
async function exchanged(headers: Record<string, string>, record: UrlRecord | null, verdict: Partial<Verdict>): Promise<Task> {
	const url = server.url('/page');
	const probe = await send(deps, noRetries, { method: 'GET', url, headers }, new AbortController().signal);
	return {
		line: 1,
		input: url,
		url,
		record,
		probe,
		verdict: { url, changed: true, reason: 'new', ...verdict },
		next: { v: RECORD_VERSION, status: probe.status, etag: '"v1"', lastChecked: NOW },
	};
}

describe('writeWarc', () => {
	it('archives a new body as a request and a response, and records where in the state to commit', async () => {
		const task = await exchanged({}, null, { reason: 'new' });
		const [out] = await lastValueFrom(from([task]).pipe(writeWarc(writer), toArray()));
		writer.close();
		const records = await readWarc(file);
		expect(records.map((record) => record.type)).toEqual(['warcinfo', 'request', 'response']);
		const response = records[2]!;
		expect(response.headers['WARC-Target-URI']).toBe(server.url('/page'));
		expect(response.payload?.toString()).toBe('archived body');
		expect(out!.next!.warc).toEqual({ digest: warcDigest(Buffer.from('archived body')), date: response.headers['WARC-Date'], uri: server.url('/page') });
	});

	it('archives a 304 as a revisit that refers to the last capture, and keeps that capture in the state', async () => {
		const earlier = { digest: warcDigest(Buffer.from('archived body')), date: '2023-12-31T00:00:00Z', uri: server.url('/page') };
		const stored: UrlRecord = { v: RECORD_VERSION, status: 200, etag: '"v1"', lastChecked: NOW - 1000, warc: earlier };
		const task = await exchanged({ 'if-none-match': '"v1"' }, stored, { changed: false, reason: '304' });
		expect(task.probe!.status).toBe(304);
		const [out] = await lastValueFrom(from([task]).pipe(writeWarc(writer), toArray()));
		writer.close();
		const records = await readWarc(file);
		expect(records.map((record) => record.type)).toEqual(['warcinfo', 'revisit']);
		expect(records[1]!.headers).toMatchObject({
			'WARC-Profile': 'http://netpreserve.org/warc/1.1/revisit/server-not-modified',
			'WARC-Refers-To-Target-URI': earlier.uri,
			'WARC-Refers-To-Date': earlier.date,
			'WARC-Payload-Digest': earlier.digest,
			'WARC-Etag': '"v1"',
		});
		expect(out!.next!.warc).toEqual(earlier);
	});

	it('writes nothing for a skipped task or one with no state to commit', async () => {
		const task = await exchanged({}, null, {});
		const out = await lastValueFrom(
			from([
				{ ...task, skip: 'held' as const },
				{ ...task, next: undefined },
			]).pipe(writeWarc(writer), toArray()),
		);
		writer.close();
		expect(out).toHaveLength(2);
		expect(existsSync(file)).toBe(false);
	});
});
