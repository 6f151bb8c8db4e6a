// The body of one `--local-workers` thread: sends the attempts the coordinator posts,
// with the run's client settings (workerData), and posts each outcome back. It keeps no
// state beyond the attempts in flight, so a thread that dies loses only those.
import { parentPort, workerData } from 'node:worker_threads';
import type { HttpClientOptions } from '../../http/client.js';
import { createExecutor } from './execute.js';
import { batcher } from './batch.js';
import type { FromThread, ToThread } from './thread-messages.js';

const port = parentPort!;
const executor = createExecutor(workerData as HttpClientOptions);
const inFlight = new Map<number, AbortController>();
const outcomes = batcher<FromThread>((batch) => port.postMessage(batch));

port.on('message', (messages: ToThread[]) => {
	for (const message of messages) receive(message);
});

function receive(message: ToThread): void {
	if (message.type === 'cancel') return void inFlight.get(message.id)?.abort();
	const controller = new AbortController();
	inFlight.set(message.id, controller);
	executor
		.attempt(message.spec, controller.signal)
		.then(
			(attempt) => outcomes.push({ id: message.id, attempt }),
			// Only an abort rejects (see net/http/request.ts); the coordinator has stopped waiting.
			() => undefined,
		)
		.finally(() => inFlight.delete(message.id));
}
