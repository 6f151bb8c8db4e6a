import type { Readable, Writable } from 'node:stream';
import { concat, defer, filter, ignoreElements, map, Observable } from 'rxjs';
import { loadPipeline } from '../config/load.js';
import type { PipelineConfig } from '../config/pipeline-config.js';
import { validatePipeline } from '../config/validate.js';
import { checkStart, composeRun } from '../pipelines/compose.js';
import { compilePipeline, pipelineShape } from '../pipelines/config.js';
import { runTasks, withResources } from '../pipelines/run.js';
import { createSummary, type Summary } from '../pipelines/summary.js';
import { describeChurn } from '../stages/churn-guard.js';
import type { ValidatorStore } from '../store/model/types.js';
import type { Task, Verdict } from '../domain/task/types.js';
import type { Clock } from '../domain/task/clock.js';
import { toVerdict } from './sweep.js';
import { defaultStoreDir } from '../store/default-dir.js';
import { checkedStore } from '../store/given.js';
import { ConfigError } from '../base/errors/index.js';
import { visible } from '../base/util/visible.js';

/** Where a pipeline's stdin source reads and its stdout sinks and diagnostics write; the process's by default. */
export interface PipelineRuntime {
	/** Overrides the config's store (a directory, or a store you own, e.g. `new MemoryStore()`). */
	store?: string | ValidatorStore | undefined;
	stdin?: Readable | undefined;
	stdout?: Writable | undefined;
	stderr?: Writable | undefined;
	env?: NodeJS.ProcessEnv | undefined;
	/** Each diagnostic line (bad input, failed URLs, blocked hosts); default: `revisit: …` on stderr. */
	diagnose?: ((text: string) => void) | undefined;
	clock?: Clock | undefined;
	random?: (() => number) | undefined;
}

export interface Pipeline {
	/** Runs the pipeline when subscribed (sinks included) and emits each verdict before it is committed; bad input as `error` verdicts with code BAD_INPUT. */
	verdicts$: Observable<Verdict>;
	/** Runs the pipeline to the end and resolves to its counts; rejects on a store, source or sink failure. */
	run(): Promise<Summary>;
}

/**
 * A pipeline from a config object, validated against the pipeline schema first (a
 * `ConfigError` lists every problem). It runs the same stages as the CLI, through the
 * same run loop: sources in order, the sweep (or crawl), sinks in order, commit after
 * output, and the run-history row. Each subscription or `run()` is a new run.
 *
 * @example
 * import { createPipeline } from 'revisit';
 * const pipeline = createPipeline({
 *   store: '.revisit',
 *   source: { type: 'urls', urls: ['https://example.org/'] },
 *   stages: [{ use: 'probe', concurrency: 8 }],
 *   sinks: [{ type: 'file', path: 'changed.txt' }],
 * });
 * const summary = await pipeline.run();
 */
export function createPipeline(config: PipelineConfig, runtime: PipelineRuntime = {}): Pipeline {
	const compiled = compilePipeline(validatePipeline(config));
	// A watch never ends, so it has no run() to resolve nor verdicts$ to complete: the CLI's revisit run runs it.
	if (compiled.watch) throw new ConfigError(['pipeline: /mode: createPipeline runs a pipeline once; a watch-mode pipeline runs with revisit run FILE']);
	const env = runtime.env ?? process.env;
	const stderr = runtime.stderr ?? process.stderr;
	const stdout = runtime.stdout ?? process.stdout;
	const diagnose = runtime.diagnose ?? ((text: string) => void stderr.write(`revisit: ${visible(text)}\n`));
	const stdin = runtime.stdin ?? process.stdin;
	const shape = pipelineShape(compiled);
	const edges = {
		out: (text: string) => new Promise<void>((resolve, reject) => stdout.write(text, (error) => (error ? reject(error) : resolve()))),
		diagnose,
		stdout,
		stderr,
		env,
	};
	const store = checkedStore(runtime.store ?? compiled.store ?? defaultStoreDir(env));

	// Its notify sinks' URLs are loaded by apprise's dry run before the store opens and any request goes out.
	const tasks = (summary: Summary): Observable<Task> =>
		concat(
			defer(() => checkStart(shape)).pipe(ignoreElements()),
			withResources({ store, clock: runtime.clock, random: runtime.random }, shape.options, (deps) =>
				runTasks(
					deps,
					{
						options: shape.options,
						input: (opened, valve) => shape.source({ deps: opened, retry: shape.options, valve, stdin, stderr, env }),
						build: (opened) => composeRun(opened, shape, edges),
						placesKeepText: true,
						onBlocked: (origin, decision) => diagnose(`${describeChurn(origin, decision)}: changes held back (churn guard)`),
					},
					summary,
				),
			),
		);
	return {
		verdicts$: new Observable<Verdict>((subscriber) =>
			tasks(createSummary())
				.pipe(
					map(toVerdict),
					filter((verdict): verdict is Verdict => verdict !== undefined),
				)
				.subscribe(subscriber),
		),
		run: () =>
			new Promise<Summary>((resolve, reject) => {
				const summary = createSummary();
				tasks(summary).subscribe({ error: reject, complete: () => resolve(summary) });
			}),
	};
}

/**
 * Runs a pipeline file (validated, with line numbers in any error) or config object to
 * the end, and resolves to its counts: `revisit run` as a function.
 *
 * @example
 * import { run, someFailed } from 'revisit';
 * const summary = await run('config/examples/sweep-file.json');
 * if (someFailed(summary)) process.exitCode = 1;
 */
export async function run(pipeline: string | PipelineConfig, runtime: PipelineRuntime & { set?: readonly string[] } = {}): Promise<Summary> {
	const config = typeof pipeline === 'string' ? await loadPipeline(pipeline, runtime.set ?? []) : pipeline;
	return createPipeline(config, runtime).run();
}
