import type { FromSchema } from 'json-schema-to-ts';
import type { pipelineSchema } from './schema.js';

/**
 * A pipeline file, as TypeScript sees it: inferred from the schema, so the two can't
 * drift. Options with defaults stay optional (the defaults are filled when the pipeline
 * is compiled, from the same table as the CLI's).
 *
 * @example
 * const config: PipelineConfig = { source: { type: 'urls', urls: ['https://example.org/'] }, sinks: [{ type: 'stdout' }] };
 */
export type PipelineConfig = FromSchema<typeof pipelineSchema, { keepDefaultedPropertiesOptional: true }>;

/** One source of a pipeline, tagged by `type`. */
export type SourceConfig = Exclude<PipelineConfig['source'], readonly unknown[]>;

/** One entry of `stages`, tagged by `use`. */
export type StageConfig = NonNullable<PipelineConfig['stages']>[number];

/** A stage's name. */
export type StageName = StageConfig['use'];

/** One sink, tagged by `type`. */
export type SinkConfig = PipelineConfig['sinks'][number];

/** Which verdicts a sink receives. */
export type SinkWhen = NonNullable<Extract<SinkConfig, { when?: unknown }>['when']>;

/** The store: a directory, or backend settings. */
export type StoreConfig = NonNullable<PipelineConfig['store']>;
