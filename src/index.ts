/**
 * revisit as a library. `sweep()` and `fetch()` are the CLI's commands as Observables,
 * `createPipeline()` and `run()` run pipeline configs (the JSON of `revisit run`), and
 * the stages, sources and sinks are exported for people who compose their own RxJS
 * pipelines. Every function that uses a store takes a store directory or Redis URL (opened
 * and closed for the call) or a store from `openStore()`, which the caller closes.
 *
 * @example
 * import { sweep, openStore, pageVersions } from 'revisit';
 * sweep(['https://example.org/'], { store: '.revisit' }).subscribe((verdict) => console.log(verdict));
 * const store = await openStore('.revisit', { create: false, viaWatch: true });
 * try { console.log(await pageVersions(store, 'https://example.org/')); } finally { await store.close(); }
 */
export { sweep, type SweepApiOptions, type UrlSource } from './api/sweep.js';
export { fetch, type FetchApiOptions, type FetchedVerdict } from './api/fetch.js';
export { createPipeline, run, type Pipeline, type PipelineRuntime } from './api/pipeline.js';
export { loadPipeline, parsePipeline } from './config/load.js';
export { validatePipeline } from './config/validate.js';
export { pipelineSchema } from './config/schema.js';
export type { PipelineConfig, SourceConfig, StageConfig, SinkConfig, StoreConfig } from './config/pipeline-config.js';
export { compilePipeline, pipelineShape, type CompiledPipeline } from './pipelines/config.js';
export { composeRun, type RunShape, type RunEdges } from './pipelines/compose.js';
export { runTasks, withResources, type RunPlan } from './pipelines/run.js';
export { crawl, crawlOptions, fetchOptions, fetchStages, type CrawlOptions } from './pipelines/fetch.js';
export * as sources from './io/sources/index.js';
export * as sinks from './io/sinks/index.js';
export {
	REASONS,
	URL_ERROR_CODES,
	type Verdict,
	type Reason,
	type UrlError,
	type UrlErrorCode,
	type Task,
	type TaskFlow,
	type PageData,
	type ProbeResult,
} from './domain/task/types.js';
export type { Clock } from './domain/task/clock.js';
export { sweepStages, type SweepDeps } from './pipelines/sweep.js';
export { normaliseSweepOptions } from './pipelines/normalise-options.js';
export { sweepDefaults } from './pipelines/sweep-defaults.js';
export type { SweepOptions } from './pipelines/sweep-options.js';
export { openSweepDeps } from './pipelines/resources.js';
export { createSummary, countTask, formatSummary, someFailed, type Summary } from './pipelines/summary.js';
export { createValve, type Valve } from './base/flow/valve.js';
export { createLimiter, type Limiter, type LimiterOptions } from './net/http/limiter.js';
export { createHttpClient } from './net/http/client.js';
export {
	MemoryStore,
	LevelStore,
	openStore,
	RECORD_VERSION,
	type OpenStoreOptions,
	type StoreInput,
	type UrlRecord,
	type StoreOperation,
	type ValidatorStore,
} from './store/index.js';
export type { StoreReader, StoreWriter, StoreScheduler, HostOverrides, WatchedStore } from './store/index.js';
export { pageVersions, versionText, versionTexts, type PageVersion } from './domain/versions/index.js';
export {
	RevisitError,
	UsageError,
	OptionError,
	StoreError,
	ConfigError,
	PipelineError,
	ERROR_CODES,
	EXIT,
	exitStatusFor,
	type ErrorCode,
} from './base/errors/index.js';
export * as stages from './api/stages.js';
export { parsePrice } from './domain/product/price.js';
export { readOffer, explainOffer } from './domain/product/offer.js';
export { AVAILABILITIES, type Availability, type Product, type Offer, type OfferSource, type ParsedPrice } from './store/model/product.js';
