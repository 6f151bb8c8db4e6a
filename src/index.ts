/**
 * revisit as a library. `sweep()` is the whole pipeline; the stages are exported for
 * people who compose their own RxJS pipelines.
 *
 * @example
 * import { sweep } from 'revisit';
 * sweep(['https://example.org/'], { store: '.revisit' }).subscribe((verdict) => console.log(verdict));
 */
export { sweep, type SweepApiOptions, type UrlSource } from './api/sweep.js';
export type { Verdict, Reason, Task, ProbeResult, Clock } from './types.js';
export { sweepStages, type SweepDeps } from './pipelines/sweep.js';
export { normaliseSweepOptions, sweepDefaults, type SweepOptions } from './pipelines/sweep-options.js';
export { openSweepDeps } from './pipelines/resources.js';
export { createSummary, countTask, formatSummary, type Summary } from './pipelines/summary.js';
export { createValve, type Valve } from './flow/valve.js';
export { createLimiter, type Limiter, type LimiterOptions } from './http/limiter.js';
export { createHttpClient } from './http/client.js';
export { MemoryStore, LevelStore, RECORD_VERSION, type UrlRecord, type StoreOperation, type ValidatorStore } from './store/index.js';
export { RevisitError, UsageError, StoreError, ProbeError, EXIT, exitStatusFor } from './errors/index.js';
export * as stages from './stages/index.js';
