import { GROUP } from './groups.js';
import { flagRow, type ValuesOf } from '../../config/setting-row.js';
import { flagsOf } from './setting.js';
import { sizeValue } from '../../config/values.js';
import type { RunShape } from '../../pipelines/compose.js';

/** `--warc FILE` and `--warc-max-size SIZE` of sweep, fetch and crawl, one row each. */
export const warcSettings = {
	warc: flagRow({
		group: GROUP.feeds,
		doc: 'Archive the run in this WARC/1.1 file (.warc.gz): a response for each body read, a revisit for each 304 or same payload',
		type: 'string',
	}),
	'warc-max-size': flagRow({
		group: GROUP.feeds,
		doc: 'Start a new WARC file (FILE-00001.warc.gz, …) once one passes this size (e.g. 1GB)',
		parse: (value: unknown) => (value === undefined ? undefined : sizeValue('warc-max-size')(value)),
	}),
};

/** Parsed WARC flags. */
export type WarcFlags = ValuesOf<typeof warcSettings>;

/** The WARC flags, from their rows. */
export const warcFlagOptions = flagsOf(warcSettings);

/**
 * The run's WARC output from the flags, or none.
 *
 * @example
 * warcFrom(args, 'sweep') // { path: 'nightly.warc.gz', maxBytes: undefined, command: 'sweep' }
 */
export function warcFrom(flags: WarcFlags, command: string): RunShape['warc'] {
	return flags.warc === undefined ? undefined : { path: flags.warc, maxBytes: flags['warc-max-size'], command };
}
