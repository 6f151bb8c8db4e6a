import type { Got } from 'got';
import type { HttpClientOptions } from './client.js';
import { waitForDescriptors } from './descriptor-wait.js';
import { attemptRequest, type Attempt, type BodyMode, type Method, type StopIf } from './request.js';

/**
 * The validators a form check already holds: a 2xx that carries exactly these has not
 * moved, so its body is dropped unread. `while` is asked when the headers are in, in this
 * process only; a transport that sends elsewhere asks it once, before sending.
 */
export interface Unless {
	etag?: string | undefined;
	lastModified?: string | undefined;
	while?: (() => boolean) | undefined;
}

/** One HTTP attempt as plain data: what a transport carries to whatever sends it. */
export interface AttemptSpec {
	method: Method;
	url: string;
	headers: Record<string, string>;
	bodyMode: BodyMode;
	unless?: Unless | undefined;
	/** The origin the user's secret headers may go to, when it is not the URL's own (a rendered page's data request: the page's). */
	secretsTo?: string | undefined;
}

/**
 * Where attempts are sent from. The default sends them from this process; a transport
 * may hand them to worker threads or to `revisit worker` processes instead. Whatever it
 * does, the caller keeps the limiter slot for the whole attempt, so per-host limits and
 * rates hold however many senders there are.
 */
export interface Transport {
	/** Who sends, for the run's summary line ("2 worker threads"); absent for this process. */
	label?: string | undefined;
	/**
	 * Resolves with the attempt's outcome; rejects only when `signal` aborts it. `sent`, which
	 * a transport with `reportsSent` calls, says the request is on the wire: the limiter's
	 * rate and gaps count from then. One that cannot tell (another thread or process sends
	 * it) leaves `reportsSent` unset, and its attempts count as sent when they start.
	 */
	attempt(spec: AttemptSpec, signal: AbortSignal, sent?: () => void): Promise<Attempt>;
	readonly reportsSent?: boolean | undefined;
}

/**
 * Sends every attempt from this process with `client`, waiting out a shortage of file
 * descriptors within the attempt (see descriptor-wait.ts).
 *
 * @example
 * const transport = inProcess(client, Date.now, Math.random);
 * const { result } = await transport.attempt({ method: 'GET', url, headers: {}, bodyMode: 'hash' }, signal);
 */
export function inProcess(client: Got, now: () => number, random: () => number): Transport {
	// An attempt waits for a descriptor no longer than it may take in all; in real time, like
	// got's own timeout (an injected clock may stand still).
	const budgetMs = client.defaults.options.timeout.request ?? 0;
	return {
		reportsSent: true,
		attempt(spec, signal, sent) {
			const stopIf = spec.unless && unmoved(spec.unless);
			const wait = { budgetMs, now: () => performance.now(), random, signal };
			return waitForDescriptors(
				() => attemptRequest(client, spec.method, spec.url, spec.headers, signal, now, spec.bodyMode, stopIf, spec.secretsTo, sent),
				wait,
			);
		},
	};
}

/** The StopIf an `Unless` describes. */
export function unmoved(unless: Unless): StopIf {
	return (status, got) =>
		status >= 200 && status < 300 && got.etag === unless.etag && got['last-modified'] === unless.lastModified && (unless.while?.() ?? true);
}

/**
 * Opens a transport for one run, given the run's client settings (plain data, so that
 * senders elsewhere build the very client this process would); `close` ends it.
 *
 * @example
 * const { transport, close } = await factory(clientSettings(options));
 */
export type TransportFactory = (settings: HttpClientOptions) => Promise<{ transport: Transport; close(): Promise<void> }>;
