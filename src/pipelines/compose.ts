import { identity, pipe, type MonoTypeOperatorFunction, type OperatorFunction } from 'rxjs';
import { compileRules } from '../domain/content/rules.js';
import { atomSink } from '../io/sinks/atom.js';
import { bodiesSink } from '../io/sinks/bodies.js';
import { dirSink } from '../io/sinks/dir.js';
import type { Sink, SinkContext } from '../io/sinks/sink.js';
import { warcSink } from '../io/sinks/warc.js';
import { webhookSink } from '../io/sinks/webhook.js';
import { checkNotify, notifySink, type NotifySinkOptions } from '../io/sinks/notify.js';
import { emit, type EmitOptions, type EmitTargets } from '../stages/emit.js';
import { filter, type FilterOptions } from '../stages/filter.js';
import { when } from '../stages/when.js';
import { compileCondition } from '../domain/condition/compile.js';
import type { InputLine, Task } from '../domain/task/types.js';
import { warcInfo } from '../outputs/warc/info.js';
import { enqueue } from '../io/outbox/enqueue.js';
import type { Outbox } from '../io/outbox/open.js';
import { crawl, fetchStages } from './fetch.js';
import { judgeStages, sweepStages, type SweepDeps } from './sweep.js';
import type { SweepOptions } from './sweep-options.js';
import type { WatchOptions } from './watch-options.js';

/** Where a run's bodies go: files under a folder per host with an index (and, with `diff`, a diff of what the rules count), or NDJSON on stdout. */
export type BodiesOutput = { dir: string; diff?: boolean | undefined } | 'ndjson';

/** The feeds a run keeps: an Atom file, a webhook, notifications (`--atom`, `--webhook`, `--notify`). */
export interface FeedsOutput {
	atom?: { path: string; max: number; new?: boolean | undefined } | undefined;
	webhook?: { url: string; secret?: string | undefined; batch: number; new?: boolean | undefined } | undefined;
	notify?: NotifySinkOptions | undefined;
	/** How long a delivery waits in the store for its target (`--delivery-max-age`; default 7 days). */
	deliveryMaxAgeMs?: number | undefined;
}

/** What a run does with its verdicts beside judging them: kept, printed, told; a sweep's, a crawl's and a watch's alike. */
export interface RunOutputs {
	/** A pipeline file's filter stage, after dedupe. */
	filter?: FilterOptions | undefined;
	/** Archive the run in a WARC file (`--warc`); the options must capture exchanges (`capture`). */
	warc?: { path: string; maxBytes?: number | undefined; command: string } | undefined;
	/** Keep the fetched bodies. */
	bodies?: BodiesOutput | undefined;
	/** The data lines on stdout (URLs or NDJSON verdicts); absent: diagnostics only. */
	emit?: EmitOptions | undefined;
	feeds?: FeedsOutput | undefined;
	/** A pipeline file's sinks, in order, after everything else. */
	sinks?: readonly Sink[] | undefined;
	/** Report pages to write once the run row is stored (a pipeline file's `report` sinks). */
	reports?: ReadonlyArray<{ path: string; runs: number }> | undefined;
	/** What must hold before the run's first request, beyond its feeds (a pipeline file's notify sinks): each rejects with a usage error. */
	checks?: ReadonlyArray<() => Promise<void>> | undefined;
}

/**
 * A run's shape, as plain data: how URLs are judged, what is kept of what was fetched,
 * what is printed and who is told. A command builds it from its flags, a pipeline file
 * compiles to it, and `composeRun` turns it into the run's stages.
 */
export interface RunShape extends RunOutputs {
	/** sweep: conditional probes; fetch: download every URL; crawl: a candidates sweep feeding a fetch phase. */
	phase: 'sweep' | 'fetch' | 'crawl';
	/** The run's options: the sweep's, the fetch's (`fetchOptions`), or a crawl's sweep phase (`crawlOptions(...).sweep`). */
	options: SweepOptions;
	/** A crawl's fetch phase (`crawlOptions(...).fetch`). */
	fetch?: SweepOptions | undefined;
}

/** A watch's run: a sweep's checks, the same URL again and again (`revisit watch`), under the watch's own options. */
export interface WatchShape extends RunOutputs {
	phase: 'watch';
	options: WatchOptions;
}

/**
 * Checks what the run will tell before it sends a request: the notify URLs of its feeds
 * and its `checks` (apprise's dry run of each URL it sends). A mistyped scheme would
 * otherwise fail only at the first change, maybe days into a watch. Rejects with the
 * first problem, in order.
 *
 * @example
 * await checkStart(shape) // UsageError: --notify: notify URL jsno://***:***@***: apprise cannot load it …
 */
export async function checkStart(shape: Pick<RunOutputs, 'feeds' | 'checks'>): Promise<void> {
	const notify = shape.feeds?.notify;
	const checks = [...(notify && notify.urls.length > 0 ? [() => checkNotify(notify)] : []), ...(shape.checks ?? [])];
	const results = await Promise.allSettled(checks.map((check) => check()));
	const refused = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
	if (refused) throw refused.reason;
}

/** The process edges the stages of a run write to. */
export type RunEdges = EmitTargets & Omit<SinkContext, 'clock' | 'out'>;

/**
 * The stages of one run, from input lines to tasks ready for the commit: judge, keep
 * (WARC, bodies), print, tell (feeds, sinks). Each task passes on only once every write
 * before it is done, so the commit after never records what was not written or shown.
 * With `outbox` (a command's run, see openOutbox), the feeds are not told here: each
 * change carries its pending deliveries into the commit, and the outbox's worker sends them.
 *
 * @example
 * runTasks(deps, { options: shape.options, input, build: (d) => composeRun(d, shape, edges) }, summary)
 */
export function composeRun(deps: SweepDeps, shape: RunShape | WatchShape, edges: RunEdges, outbox?: Outbox): OperatorFunction<InputLine, Task> {
	const context: SinkContext = { out: edges.out, stdout: edges.stdout, stderr: edges.stderr, env: edges.env, clock: deps.clock };
	const after = (sinks: readonly Sink[]) => sinks.reduce<MonoTypeOperatorFunction<Task>>((chain, sink) => pipe(chain, sink(context)), identity);
	// The condition after keep-text (its word diff is `changed_words`), before anything is written out.
	const condition = shape.options.when === undefined ? identity : when(compileCondition(shape.options.when, 'when'));
	// With an outbox, the feeds' deliveries are committed with the change and sent by its worker, off the check path.
	const tell = outbox
		? pipe(after(shape.sinks ?? []), enqueue(outbox.targets, { queued: outbox.queued, run: outbox.run }))
		: after([...telling(shape.feeds), ...(shape.sinks ?? [])]);
	return pipe(
		judge(deps, shape),
		deps.keepText ?? identity,
		condition,
		after(keeping(shape)),
		emit(shape.emit, shape.emit ? edges : { out: async () => {}, diagnose: edges.diagnose }),
		tell,
	);
}

function judge(deps: SweepDeps, shape: RunShape | WatchShape): OperatorFunction<InputLine, Task> {
	const extras = { filter: shape.filter && filter(shape.filter) };
	if (shape.phase === 'crawl') return crawl(deps, { sweep: shape.options, fetch: shape.fetch ?? shape.options }, extras);
	// No churn guard: a watch has no run whose end could release what it held back.
	if (shape.phase === 'watch') return judgeStages(deps, shape.options, { ...extras, dedupe: false });
	return shape.phase === 'fetch' ? fetchStages(deps, shape.options, extras) : sweepStages(deps, shape.options, extras);
}

/** The WARC first (a revisit record needs no body), then the bodies: a line is printed once both hold it. */
function keeping(shape: RunShape | WatchShape): Sink[] {
	const sinks: Sink[] = [];
	if (shape.warc) sinks.push(warcSink({ path: shape.warc.path, maxSize: shape.warc.maxBytes, info: warcInfo(shape.options, shape.warc.command) }));
	if (shape.bodies === 'ndjson') sinks.push(bodiesSink());
	else if (shape.bodies) sinks.push(dirSink({ path: shape.bodies.dir, when: 'all', diff: shape.bodies.diff, rules: compileRules(shape.options.rules ?? []) }));
	return sinks;
}

function telling(feeds: FeedsOutput = {}): Sink[] {
	return [
		...(feeds.atom ? [atomSink({ path: feeds.atom.path, max: feeds.atom.max, new: feeds.atom.new })] : []),
		...(feeds.webhook ? [webhookSink(feeds.webhook)] : []),
		...(feeds.notify && feeds.notify.urls.length > 0 ? [notifySink(feeds.notify)] : []),
	];
}
