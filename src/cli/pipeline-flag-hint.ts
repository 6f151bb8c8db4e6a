import { OPTION_STAGE } from '../config/overrides.js';
import { pipelineSchema } from '../config/schema.js';
import type { TypedFlag } from './unknown-flags.js';

const TOP_KEYS: readonly string[] = Object.keys(pipelineSchema.properties).filter((key) => key !== '$schema');

/** Stage options that are switches: `--insecure` is `--set insecure=true`. */
const BOOLEAN_OPTIONS: ReadonlySet<string> = new Set(
	pipelineSchema.properties.stages.items.oneOf.flatMap((stage) =>
		Object.entries(stage.properties)
			.filter(([, value]) => (value as { type?: string }).type === 'boolean')
			.map(([key]) => key),
	),
);

const camel = (flag: string): string => flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * A stage option of a pipeline file given to `run` or `check` as a flag: where it goes
 * instead (the file, or `--set`). Apart from unknown-flags.ts because it reads the pipeline
 * schema, which the quick CLI for log and diff does not load.
 *
 * @example
 * pipelineFlagHint('run', { name: '--insecure', keys: ['insecure'], value: undefined, negated: false })
 * // 'revisit run takes no --insecure: set it in the pipeline file, or with --set insecure=true'
 */
export function pipelineFlagHint(command: string | undefined, flag: TypedFlag): string | undefined {
	if ((command !== 'run' && command !== 'check') || !flag.name.startsWith('--')) return undefined;
	const key = camel(flag.name.replace(/^--(no-)?/, ''));
	if (!OPTION_STAGE.has(key) && !TOP_KEYS.includes(key)) return undefined;
	const value = BOOLEAN_OPTIONS.has(key) ? String(!flag.negated && flag.value !== 'false') : (flag.value ?? 'VALUE');
	return `revisit ${command} takes no ${flag.name}: set it in the pipeline file, or with --set ${key}=${value}`;
}
