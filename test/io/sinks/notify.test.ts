import { from, lastValueFrom, tap, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { RevisitError, UsageError } from '../../../src/base/errors/index.js';
import { notifySink, type NotifySinkOptions } from '../../../src/io/sinks/notify.js';
import type { Task } from '../../../src/domain/task/types.js';
import type { TestServer } from '../../helpers/server.js';
import { startReceiver } from '../notify/receiver.js';
import { failed, judged, sinkContext, unchanged } from './context.js';

let receiver: TestServer | undefined;
afterEach(async () => {
	await receiver?.close();
	receiver = undefined;
});

const run = (tasks: Task[], options: NotifySinkOptions) => lastValueFrom(from(tasks).pipe(notifySink(options)(sinkContext().context), toArray()));
const jsonUrl = (server: TestServer, path: string) => `json://${server.origin.slice('http://'.length)}${path}`;

describe('notifySink', () => {
	it('sends each change to every URL, and nothing for unchanged, failed, unmet or (by default) new URLs', async () => {
		const started = await startReceiver();
		receiver = started.server;
		const tasks = [
			judged('https://a.example/1', { reason: 'price', product: { price: 21, currency: 'EUR' }, previous: { price: 24.5, currency: 'EUR' } }),
			unchanged('https://a.example/2'),
			failed('https://a.example/3'),
			judged('https://a.example/4', { reason: 'new' }),
			judged('https://a.example/5', { changed: false, reason: 'unmet' }),
		];
		const out = await run(tasks, { urls: [jsonUrl(receiver, '/one'), jsonUrl(receiver, '/two')] });
		expect(out).toHaveLength(5);
		expect(started.received.map((r) => [r.path, (r.body as { url: string }).url])).toEqual([
			['/one', 'https://a.example/1'],
			['/two', 'https://a.example/1'],
		]);
		expect(started.received[0]!.body).toMatchObject({
			message: 'https://a.example/1\nreason: price\nprice 24.5 EUR → 21 EUR',
			product: { price: 21 },
			previous: { price: 24.5 },
		});
	});

	it('with new, also a first sighting; with a template, its body', async () => {
		const started = await startReceiver();
		receiver = started.server;
		await run([judged('https://a.example/1', { reason: 'new' })], { urls: [jsonUrl(receiver, '/')], new: true, template: 'seen {url} ({reason})' });
		expect(started.received.map((r) => (r.body as { message: string }).message)).toEqual(['seen https://a.example/1 (new)']);
	});

	it('retries, and passes a task on only once delivered', async () => {
		const statuses = [500, 503];
		const started = await startReceiver(() => [statuses.shift() ?? 200]);
		receiver = started.server;
		const passed: string[] = [];
		await lastValueFrom(
			from([judged('https://a.example/1')]).pipe(
				notifySink({ urls: [jsonUrl(receiver, '/')], retryDelayMs: 1 })(sinkContext().context),
				tap((task) => passed.push(`${task.url} after ${started.received.length} posts`)),
				toArray(),
			),
		);
		expect(passed).toEqual(['https://a.example/1 after 3 posts']);
	});

	it('fails with SINK_FAILED, passing nothing on, when a URL keeps failing; the message hides its password', async () => {
		const started = await startReceiver(() => [500]);
		receiver = started.server;
		const passed: Task[] = [];
		const url = `json://bot:hunter22@${receiver.origin.slice('http://'.length)}/`;
		const error = await new Promise((resolve) =>
			from([judged('https://a.example/1')])
				.pipe(notifySink({ urls: [url], retries: 1, retryDelayMs: 1 })(sinkContext().context))
				.subscribe({ next: (task) => passed.push(task), error: resolve, complete: () => resolve(undefined) }),
		);
		expect(error).toBeInstanceOf(RevisitError);
		expect(error).toMatchObject({
			code: 'SINK_FAILED',
			message:
				`notify json://bot:***@${receiver.origin.slice('http://'.length)}/: answered 500 after 2 attempts; ` +
				`the changes not delivered will be reported again`,
		});
		expect(started.received).toHaveLength(2);
		expect(passed).toEqual([]);
	});

	it('checks its URLs and template when built', () => {
		expect(() => notifySink({ urls: ['discord://only-an-id'] })).toThrow(UsageError);
		expect(() => notifySink({ urls: ['ntfy://host/topic'], template: '{nope}' })).toThrow('unknown placeholder {nope}');
	});
});
