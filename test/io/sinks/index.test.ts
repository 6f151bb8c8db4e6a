import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { from, lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sinkFrom } from '../../../src/io/sinks/index.js';
import { tempDir } from '../../helpers/cli.js';
import { startServer, type TestServer } from '../../helpers/server.js';
import { judged, sinkContext, unchanged } from './context.js';

let dir: string;
let cleanup: () => Promise<void>;
let receiver: TestServer | undefined;
beforeEach(async () => {
	({ dir, cleanup } = await tempDir('revisit-sink-from-'));
});
afterEach(async () => {
	await receiver?.close();
	receiver = undefined;
	await cleanup();
});

const tasks = [judged('https://a.example/1'), unchanged('https://a.example/2')];

describe('sinkFrom', () => {
	it("makes a file sink from a pipeline file's entry, with its format and when", async () => {
		const file = path.join(dir, 'all.ndjson');
		await lastValueFrom(from(tasks).pipe(sinkFrom({ type: 'file', path: file, format: 'ndjson', when: 'all' })(sinkContext().context), toArray()));
		expect(
			(await readFile(file, 'utf8'))
				.trim()
				.split('\n')
				.map((line) => JSON.parse(line).url),
		).toEqual(['https://a.example/1', 'https://a.example/2']);
	});

	it("makes a stdout sink that prints through the run's writer", async () => {
		const sink = sinkContext();
		await lastValueFrom(from(tasks).pipe(sinkFrom({ type: 'stdout' })(sink.context), toArray()));
		expect(sink.printed()).toBe('https://a.example/1\n');
	});

	it("makes a webhook sink that signs with the secret read from the run's environment variable", async () => {
		const bodies: Array<{ signature: string | undefined; body: string }> = [];
		receiver = await startServer((req, res) => {
			let body = '';
			req.on('data', (chunk: Buffer) => (body += chunk.toString()));
			req.on('end', () => {
				bodies.push({ signature: req.headers['x-revisit-signature'] as string | undefined, body });
				res.writeHead(200).end();
			});
		});
		const sink = sinkFrom({ type: 'webhook', url: receiver.url('/hook'), secretEnv: 'HOOK_SECRET' });
		await lastValueFrom(from(tasks).pipe(sink(sinkContext({ HOOK_SECRET: 'from-env' }).context), toArray()));
		expect(bodies).toHaveLength(1);
		expect(bodies[0]!.signature).toBe(`sha256=${createHmac('sha256', 'from-env').update(bodies[0]!.body).digest('hex')}`);
	});
});
