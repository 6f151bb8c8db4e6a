import { GROUP, type FlagsFor } from './groups.js';
import { sizeValue } from '../../config/values.js';
import type { RunShape } from '../../pipelines/compose.js';

/** Parsed WARC flags of sweep, fetch and crawl. */
export interface WarcFlags {
	warc?: string;
	'warc-max-size'?: number;
}

/** `--warc FILE` and `--warc-max-size SIZE`. */
export const warcFlagOptions: FlagsFor<WarcFlags> = {
	warc: {
		group: GROUP.feeds,
		type: 'string',
		requiresArg: true,
		describe: 'Archive the run in this WARC/1.1 file (.warc.gz): a response for each body read, a revisit for each 304 or same payload',
	},
	'warc-max-size': {
		group: GROUP.feeds,
		requiresArg: true,
		coerce: (value: unknown) => (value === undefined ? undefined : sizeValue('warc-max-size')(value)),
		describe: 'Start a new WARC file (FILE-00001.warc.gz, …) once one passes this size (e.g. 1GB)',
	},
};

/**
 * The run's WARC output from the flags, or none.
 *
 * @example
 * warcFrom(args, 'sweep') // { path: 'nightly.warc.gz', maxBytes: undefined, command: 'sweep' }
 */
export function warcFrom(flags: WarcFlags, command: string): RunShape['warc'] {
	return flags.warc === undefined ? undefined : { path: flags.warc, maxBytes: flags['warc-max-size'], command };
}
