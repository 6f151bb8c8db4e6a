import { Worker } from 'node:worker_threads';
import type { HttpClientOptions } from '../../http/client.js';
import type { Attempt } from '../../http/request.js';
import type { Transport, TransportFactory } from '../../http/transport.js';
import { batcher } from './batch.js';
import { threadEntry } from './thread-entry.js';
import type { FromThread, ToThread } from './thread-messages.js';
import { restoreBuffers, toWire } from './wire.js';

interface Pending {
	resolve(attempt: Attempt): void;
	url: string;
}

interface Thread {
	worker: Worker;
	pending: Map<number, Pending>;
	post: { push(message: ToThread): void };
}

/**
 * `--local-workers N`: the run's attempts are sent from N worker threads, each with its
 * own keep-alive client built from the run's settings, so that HTTP parsing, decoding
 * and hashing spread over the cores while this thread keeps the store, the limiter and
 * the judging. Each attempt goes to the thread with the fewest in flight. A thread that
 * dies fails its attempts as retryable `WORKER_DIED` errors (send() retries them, on a
 * new thread) and is replaced.
 *
 * @example
 * await openSweepDeps({ store, transport: localWorkers(2) }, options);
 */
export function localWorkers(count: number): TransportFactory {
	return async (settings) => {
		const pool = startThreadPool(count, settings);
		await pool.ready;
		return { transport: pool.transport, close: pool.close };
	};
}

/**
 * The pool behind `localWorkers`, with its threads in view (`workers()`, for tests and
 * diagnostics). `ready` resolves when every thread is online.
 *
 * @example
 * const pool = startThreadPool(2, settings);
 * await pool.ready;
 */
export function startThreadPool(count: number, settings: HttpClientOptions) {
	const entry = threadEntry(import.meta.url);
	// Each thread's client gets its share of the run's sockets.
	const perThread = { ...settings, maxSockets: Math.max(1, Math.ceil((settings.maxSockets ?? 32) / count)) };
	let nextId = 0;
	let closing = false;
	const threads: Thread[] = [];

	const spawn = (slot: number): Promise<void> => {
		const worker = new Worker(entry, { workerData: perThread });
		const thread: Thread = { worker, pending: new Map(), post: batcher((messages) => worker.postMessage(messages)) };
		threads[slot] = thread;
		worker.on('message', (outcomes: FromThread[]) => {
			for (const { id, attempt } of outcomes) {
				const pending = thread.pending.get(id);
				thread.pending.delete(id);
				pending?.resolve(restoreBuffers(attempt));
			}
		});
		const died = (why: string) => {
			if (threads[slot] !== thread) return;
			for (const [, pending] of thread.pending) pending.resolve(diedAttempt(pending.url, why));
			thread.pending.clear();
			if (!closing) void spawn(slot);
		};
		thread.worker.on('error', (error) => died(error.message));
		thread.worker.on('exit', (code) => died(`exited with status ${code}`));
		return new Promise((resolve, reject) => {
			thread.worker.once('online', resolve);
			thread.worker.once('error', reject);
		});
	};

	const ready = Promise.all(Array.from({ length: count }, (_, slot) => spawn(slot))).then(() => undefined);

	const transport: Transport = {
		label: `${count} worker thread${count === 1 ? '' : 's'}`,
		attempt(spec, signal) {
			const thread = threads.reduce((least, candidate) => (candidate.pending.size < least.pending.size ? candidate : least));
			const id = nextId++;
			return new Promise<Attempt>((resolve, reject) => {
				const onAbort = () => {
					thread.pending.delete(id);
					post(thread, { type: 'cancel', id });
					reject(signal.reason);
				};
				if (signal.aborted) return onAbort();
				signal.addEventListener('abort', onAbort, { once: true });
				thread.pending.set(id, {
					url: spec.url,
					resolve: (attempt) => {
						signal.removeEventListener('abort', onAbort);
						resolve(attempt);
					},
				});
				post(thread, { type: 'attempt', id, spec: toWire(spec) });
			});
		},
	};

	const close = async () => {
		closing = true;
		// Nothing is in flight by now but what an interrupted run abandons: ending the
		// threads closes their sockets with them.
		await Promise.all(threads.map((thread) => thread.worker.terminate()));
	};
	return { ready, transport, close, workers: () => threads.map((thread) => thread.worker) };
}

const post = (thread: Thread, message: ToThread) => thread.post.push(message);

const diedAttempt = (url: string, why: string): Attempt => ({
	retryable: true,
	result: { status: 0, finalUrl: url, permanent: false, bytes: 0, ms: 0, error: { code: 'WORKER_DIED', message: `worker thread ${why}` } },
});
