import { createHmac } from 'node:crypto';
import type http from 'node:http';
import { from, lastValueFrom, tap, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { RevisitError } from '../../../src/base/errors/index.js';
import { webhookSink, type WebhookSinkOptions } from '../../../src/io/sinks/webhook.js';
import type { Task } from '../../../src/domain/task/types.js';
import { VERSION } from '../../../src/base/util/version.js';
import { startServer, type TestServer } from '../../helpers/server.js';
import { failed, judged, sinkContext, unchanged } from './context.js';

interface Received {
	headers: http.IncomingHttpHeaders;
	body: string;
}

let receiver: TestServer | undefined;
afterEach(async () => {
	await receiver?.close();
	receiver = undefined;
});

/** A receiver that keeps each POST body; `statuses` are answered in turn (then 204). */
async function startReceiver(statuses: number[] = []): Promise<{ server: TestServer; received: Received[] }> {
	const received: Received[] = [];
	receiver = await startServer((req, res) => {
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString()));
		req.on('end', () => {
			received.push({ headers: req.headers, body });
			res.writeHead(statuses.shift() ?? 204).end();
		});
	});
	return { server: receiver, received };
}

const run = (tasks: Task[], options: WebhookSinkOptions) => lastValueFrom(from(tasks).pipe(webhookSink(options)(sinkContext().context), toArray()));

describe('webhookSink', () => {
	it('POSTs each change as JSON with its diff, and nothing for unchanged or failed URLs', async () => {
		const { server, received } = await startReceiver();
		const changed = judged('https://a.example/1', {}, { diff: '--- a\n+++ b\n' });
		const out = await run([changed, unchanged('https://a.example/2'), failed('https://a.example/3'), judged('https://a.example/4', { reason: 'new' })], {
			url: server.url('/hook'),
			new: true,
		});
		expect(out).toHaveLength(4);
		expect(server.requests.map((request) => [request.method, request.path])).toEqual([
			['POST', '/hook'],
			['POST', '/hook'],
		]);
		expect(received.map((request) => JSON.parse(request.body))).toEqual([
			{ verdict: changed.verdict, diff: '--- a\n+++ b\n' },
			{ verdict: judged('https://a.example/4', { reason: 'new' }).verdict },
		]);
		expect(received[0]!.headers['content-type']).toBe('application/json');
		expect(received[0]!.headers['user-agent']).toBe(`revisit/${VERSION}`);
		expect(received[0]!.headers).not.toHaveProperty('x-revisit-signature');
	});

	it('leaves a first sighting (new) out unless asked for', async () => {
		const { server, received } = await startReceiver();
		await run([judged('https://a.example/1', { reason: 'new' }), judged('https://a.example/2')], { url: server.url('/hook') });
		expect(received.map((request) => JSON.parse(request.body).verdict.url)).toEqual(['https://a.example/2']);
	});

	it('signs each body with HMAC-SHA256 of the secret', async () => {
		const { server, received } = await startReceiver();
		await run([judged('https://a.example/1')], { url: server.url('/hook'), secret: 's3cret' });
		const expected = `sha256=${createHmac('sha256', 's3cret').update(received[0]!.body).digest('hex')}`;
		expect(received[0]!.headers['x-revisit-signature']).toBe(expected);
	});

	it('with batch, posts the changes in groups as { changes: [...] }', async () => {
		const { server, received } = await startReceiver();
		const changes = [1, 2, 3].map((n) => judged(`https://a.example/${n}`));
		await run(changes, { url: server.url('/hook'), batch: 2 });
		expect(received.map((request) => JSON.parse(request.body).changes.map((entry: { verdict: { url: string } }) => entry.verdict.url))).toEqual([
			['https://a.example/1', 'https://a.example/2'],
			['https://a.example/3'],
		]);
	});

	it('retries a receiver that answers non-2xx, and passes the tasks on once delivered', async () => {
		const { server, received } = await startReceiver([500, 503]);
		const passed: string[] = [];
		await lastValueFrom(
			from([judged('https://a.example/1')]).pipe(
				webhookSink({ url: server.url('/hook'), retries: 3, retryDelayMs: 1 })(sinkContext().context),
				tap((task) => passed.push(`${task.url} after ${received.length} posts`)),
				toArray(),
			),
		);
		expect(received).toHaveLength(3);
		expect(new Set(received.map((request) => request.body)).size).toBe(1);
		expect(passed).toEqual(['https://a.example/1 after 3 posts']);
	});

	it('fails the run with SINK_FAILED, passing nothing on, when the receiver keeps failing', async () => {
		const { server, received } = await startReceiver([500, 500, 500]);
		const passed: Task[] = [];
		const error = await new Promise((resolve) =>
			from([judged('https://a.example/1')])
				.pipe(webhookSink({ url: server.url('/hook'), retries: 1, retryDelayMs: 1 })(sinkContext().context))
				.subscribe({ next: (task) => passed.push(task), error: resolve, complete: () => resolve(undefined) }),
		);
		expect(error).toBeInstanceOf(RevisitError);
		expect(error).toMatchObject({ code: 'SINK_FAILED' });
		expect((error as Error).message).toContain('answered 500 after 2 attempts');
		expect(received).toHaveLength(2);
		expect(passed).toEqual([]);
	});

	it('retries when the connection breaks, then fails the run with SINK_FAILED', async () => {
		// A receiver that hangs up on every request before answering: a network error, not an HTTP status.
		receiver = await startServer((req) => req.socket.destroy());
		const error = await run([judged('https://a.example/1')], { url: receiver.url('/hook'), retries: 2, retryDelayMs: 1 }).catch((caught: unknown) => caught);
		expect(error).toMatchObject({ code: 'SINK_FAILED' });
		expect((error as Error).message).toContain('after 3 attempts');
		expect(receiver.requests).toHaveLength(3);
	});

	it('closes a POST under way as soon as the run stops (unsubscribed), rather than waiting out its deadline and retries', async () => {
		let closed!: () => void;
		const gone = new Promise<void>((resolve) => (closed = resolve));
		let arrived!: () => void;
		const held = new Promise<void>((resolve) => (arrived = resolve));
		// Takes the POST and never answers: only the client can end it.
		receiver = await startServer((request) => {
			request.resume();
			request.socket.once('close', closed);
			arrived();
		});
		const subscription = from([judged('https://a.example/1')])
			.pipe(webhookSink({ url: receiver.url('/hook') })(sinkContext().context))
			.subscribe({ error: () => undefined });
		await held;
		subscription.unsubscribe();
		// At once, where it used to stay open for the 10 s request deadline (then retried): 5 s is a bound no loaded machine comes near.
		let bound: NodeJS.Timeout | undefined;
		await Promise.race([
			gone,
			new Promise((_, reject) => (bound = setTimeout(() => reject(new Error('the POST was still open 5 s after the run stopped')), 5000))),
		]);
		clearTimeout(bound);
		expect(receiver.requests).toHaveLength(1);
	});
});
