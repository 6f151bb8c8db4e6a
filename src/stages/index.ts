export { readLines, type InputLine, type ReadLinesOptions } from './read-lines.js';
export { normalise, normaliseUrl } from './normalise.js';
export { dedupe } from './dedupe.js';
export { lookup, type LookupOptions } from './lookup.js';
export { probe, type ProbeDeps, type ProbeOptions } from './probe.js';
export { compare, judge, type CompareOptions } from './compare.js';
export { emit, redact, type EmitOptions, type EmitTargets } from './emit.js';
export { commit, type CommitOptions } from './commit.js';
