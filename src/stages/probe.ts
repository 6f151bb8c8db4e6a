import { defer, type MonoTypeOperatorFunction } from 'rxjs';
import { mergeAsync } from '../base/flow/merge-async.js';
import { PARK_WINDOWS } from '../base/flow/valve.js';
import type { HostBook } from '../net/hosts/book.js';
import { probeForms, type Ask } from '../net/hosts/form-check.js';
import { stripCoding } from '../net/hosts/forms.js';
import { verificationDue } from '../net/hosts/verify.js';
import { effectiveMode, planProbe, type Plan } from '../net/hosts/policy.js';
import type { TrustOptions } from '../net/hosts/trust-options.js';
import { compareHeadGet } from '../net/http/head-check.js';
import type { BodyMode } from '../net/http/request.js';
import type { Unless } from '../net/http/transport.js';
import { send, type RetryPolicy, type SendDeps } from '../net/http/send.js';
import { liveRecord, probeTarget } from '../net/http/target.js';
import type { UrlRecord } from '../store/model/types.js';
import type { ProbeResult, Task } from '../domain/task/types.js';
import { oneOf, positiveInteger } from '../base/util/checks.js';
import { METHODS } from '../config/settings.js';

export interface ProbeDeps extends SendDeps {
	book: HostBook;
	/** `park` gives a held-up line's backpressure credit back, if the valve allows (see `Valve.park`). */
	hooks?: { park?(): boolean } | undefined;
}

export type MethodOption = (typeof METHODS)[number];

export interface ProbeOptions extends RetryPolicy {
	/** `candidates`: never download a body; a 2xx is a candidate for the fetch phase. */
	candidates?: boolean | undefined;
	/**
	 * The run's `--budget` / `--host-budget`: under either, a URL due for verification
	 * is asked unconditionally (one request, not a conditional one and its audit).
	 */
	budget?: number | undefined;
	hostBudget?: number | undefined;
	/** Accept-Encoding pinned for the run; a stored ETag from another encoding is not sent. */
	acceptEncoding: string;
	/** `auto` samples HEAD against GET on a host's first URLs and uses HEAD only where they agree. */
	method: MethodOption;
	trust: TrustOptions;
	/** Tasks handled at once (waiting for a slot or in a request); bounds memory, not connections. */
	highWater: number;
	/** Keep each 2xx body with its result, for the render stage to render (`--render`); it drops them. */
	keepBody?: boolean | undefined;
}

/**
 * Probes each task's URL as its host's trust allows: a conditional GET (or HEAD, then
 * GET if HEAD says it may have changed), the validators the host has not shown to be
 * useless, and an unconditional re-fetch when a sampled 304 is audited. Attaches the
 * plan and the result; unsubscribing aborts requests in flight.
 *
 * @example
 * tasks$.pipe(probe(options, { http, limiter, clock, random, book }))
 */
export function probe(options: ProbeOptions, deps: ProbeDeps): MonoTypeOperatorFunction<Task> {
	const highWater = positiveInteger('highWater', options.highWater);
	oneOf('method', METHODS, options.method);

	// A task is handled here from its arrival until its probe is done: the window plus the lines it may park.
	const concurrency = highWater * (1 + PARK_WINDOWS);

	return (source) =>
		defer(() => {
			// HEAD-versus-GET samples started per origin in this run (auto method).
			const samples = new Map<string, number>();
			const methodFor = (origin: string): 'get' | 'head' | 'sample' => {
				if (options.method !== 'auto') return options.method;
				const decided = deps.book.get(origin).method;
				// A full sweep needs the body whatever HEAD says, so HEAD only pays in a candidates sweep.
				if (decided) return decided === 'head' && !options.candidates ? 'get' : decided;
				const started = samples.get(origin) ?? 0;
				if (started >= options.trust.headSample) return 'get';
				samples.set(origin, started + 1);
				return 'sample';
			};
			// A host whose conditional form is not measured yet (a liar's 304 proves nothing, and a hand override is not measured).
			const checksForm = (origin: string): boolean => {
				const host = deps.book.get(origin);
				return host.form === undefined && host.override === undefined && host.mode !== 'unconditional';
			};
			const context = { methodFor, checksForm };
			return source.pipe(
				mergeAsync(
					(task) => (task.skip || task.url === undefined || task.verdict ? undefined : (signal) => probeOne(deps, options, context, task, signal)),
					concurrency,
				),
			);
		});
}

async function probeOne(
	deps: ProbeDeps,
	options: ProbeOptions,
	context: { methodFor(origin: string): 'get' | 'head' | 'sample'; checksForm(origin: string): boolean },
	task: Task,
	signal: AbortSignal,
): Promise<Task> {
	const live = liveRecord(task.record);
	const target = probeTarget(task.url!, task.record);
	const origin = task.origin ?? new URL(target).origin;
	// The plan is made when the first request gets its slot, not when the task arrives:
	// by then a host caught lying meanwhile is already distrusted.
	let plan: Plan | undefined;
	const staleEncoding = live?.encoding !== undefined && live.encoding !== options.acceptEncoding;
	const verify = live !== undefined && verificationDue(live, task.url!, deps.book.get(origin).runInterval, options.trust.verifyEveryMs, deps.clock.now());
	// Asked unconditionally: in a candidates sweep, a URL due for verification is a candidate
	// for the fetch to confirm; under a budget, a check counts against it, and a conditional
	// request audited after its 304 would be two.
	const unconditional = verify && (options.candidates || options.budget !== undefined || options.hostBudget !== undefined);
	const headers = (): Record<string, string> => {
		const planned = planProbe(deps.book.get(origin), live, options.trust, deps.random, verify);
		deps.book.set(origin, planned.host);
		plan = planned.plan;
		// An ETag obtained under another Accept-Encoding can't match: don't send it.
		if (staleEncoding) plan = { ...plan, sendEtag: false };
		if (unconditional) plan = { ...plan, sendEtag: false, sendLastModified: false, audit: false };
		if (plan.canary) return { 'if-none-match': `"revisit-canary-${Math.floor(deps.random() * 2 ** 48).toString(16)}"` };
		return conditionalHeaders(live, plan);
	};
	const bodyMode = options.candidates ? 'headers' : options.keepBody ? 'keep' : 'hash';
	// Held up by its own host (down, slow, rate-limited): park the line, so that it does not
	// keep the reader from other hosts' lines. It stays parked until it leaves the pipeline.
	const held = (): void => {
		if (!task.parked && !task.creditReturned && deps.hooks?.park?.() === true) task.parked = true;
	};
	let asked = 0;
	// Every request after a task's first is a follow-up: it goes ahead of other tasks' first requests.
	const request = (method: 'GET' | 'HEAD', withHeaders: Record<string, string> | (() => Record<string, string>), mode: BodyMode = bodyMode, unless?: Unless) =>
		send(deps, options, { method, url: target, origin, headers: withHeaders, bodyMode: mode, held, unless, followUp: asked++ > 0 }, signal);

	let result: ProbeResult;
	const method = context.methodFor(origin);
	if (method === 'sample') {
		const sent = headers();
		const [head, get] = await Promise.all([request('HEAD', sent), request('GET', sent)]);
		result = { ...get, headCheck: compareHeadGet(head, get) };
	} else if (method === 'head') {
		const head = await request('HEAD', headers);
		const unsupported = head.status === 405 || head.status === 501;
		// A HEAD that says "may have changed" has no body to hash: the verdict waits for the GET
		// (in a candidates sweep it is the verdict).
		const mayHaveChanged = head.status >= 200 && head.status < 300 && !options.candidates;
		result = unsupported || mayHaveChanged ? await request('GET', conditionalHeaders(live, plan!)) : head;
	} else if (live && (live.etag !== undefined || live.lastModified !== undefined) && !staleEncoding && !unconditional && context.checksForm(origin)) {
		// Which conditional form does the host honour? Measured without reading a body it should not send.
		const measuring = (): boolean => context.checksForm(origin);
		const unmoved: Unless = { etag: live.etag, lastModified: live.lastModified, while: measuring };
		const ask: Ask = (withHeaders, read) => request('GET', withHeaders, read === 'headers' ? 'headers' : bodyMode, read === 'unless' ? unmoved : undefined);
		result = await probeForms(live, headers, ask, { headersOnly: options.candidates === true, measuring });
	} else {
		result = await request('GET', headers);
	}
	plan ??= { sendEtag: false, sendLastModified: false, audit: false, retest: false };
	// Audit a sampled 304, and any 304 from a host found lying while this request was out.
	if (!options.candidates && result.status === 304 && (plan.audit || effectiveMode(deps.book.get(origin)) === 'unconditional')) {
		result = { ...result, audit: await request('GET', {}) };
	}
	// Straight to the end of a permanent chain: still permanent unless redirected again.
	if (target !== task.url && result.finalUrl === target) result = { ...result, permanent: true };
	// In place: a task belongs to one stage at a time, and a copy per stage per URL showed as GC.
	task.origin = origin;
	task.plan = plan;
	task.probe = result;
	return task;
}

/**
 * The conditional headers a plan allows, each validator echoed exactly as stored.
 *
 * @example
 * conditionalHeaders(record, { sendEtag: true, sendLastModified: false, ... }) // { 'if-none-match': 'W/"x"' }
 */
export function conditionalHeaders(record: UrlRecord | undefined, plan: Plan): Record<string, string> {
	const headers: Record<string, string> = {};
	if (plan.sendEtag && record?.etag !== undefined) headers['if-none-match'] = (plan.stripEtag && stripCoding(record.etag)) || record.etag;
	if (plan.sendLastModified && record?.lastModified !== undefined) headers['if-modified-since'] = record.lastModified;
	return headers;
}
