/**
 * The library's `stages`: every stage, for hand-made RxJS pipelines, with `readLines`,
 * which reads the input they take (a source's building block, in io/sources).
 */
export { readLines, type ReadLinesOptions } from '../io/sources/read-lines.js';
export type { InputLine } from '../domain/task/types.js';
export { normalise, normaliseUrl } from '../stages/normalise.js';
export { dedupe } from '../stages/dedupe.js';
export { lookup, type LookupOptions } from '../stages/lookup.js';
export { probe, type ProbeDeps, type ProbeOptions } from '../stages/probe.js';
export { compare, type CompareOptions } from '../stages/compare.js';
export { judge } from '../stages/judge.js';
export { emit, wanted, verdictOf, type EmitOptions, type EmitTargets, type When } from '../stages/emit.js';
export { commit, type CommitOptions } from '../stages/commit.js';
export { filter, type FilterOptions } from '../stages/filter.js';
export { due, isDue, type DueOptions } from '../stages/due.js';
export { schedule, type ScheduleOptions } from '../stages/schedule.js';
export { trust } from '../stages/trust.js';
export {
	churnGuard,
	describeChurn,
	judgedKnown,
	type ChurnGuardOptions,
	type ChurnGuardHooks,
	type ChurnDecision,
	type ChurnScale,
} from '../stages/churn-guard.js';
export { tally } from '../stages/tally.js';
export { fetchBodies, type FetchBodiesOptions } from '../stages/fetch-bodies.js';
export { writeBodies, type BodySink } from '../stages/write-bodies.js';
export { when } from '../stages/when.js';
