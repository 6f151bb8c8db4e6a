import type { Options } from 'yargs';
import { sizeValue } from '../../config/values.js';

/** Parsed WARC flags of sweep, fetch and crawl. */
export interface WarcFlags {
	warc?: string;
	'warc-max-size'?: number;
}

/** `--warc FILE` and `--warc-max-size SIZE`. */
export const warcFlagOptions: Record<keyof WarcFlags, Options> = {
	warc: { type: 'string', requiresArg: true, describe: 'Archive the run in this WARC/1.1 file (.warc.gz): a response for each body read, a revisit for each 304 or same payload' },
	'warc-max-size': { requiresArg: true, coerce: (value: unknown) => (value === undefined ? undefined : sizeValue('warc-max-size')(value)), describe: 'Start a new WARC file (FILE-00001.warc.gz, …) once one passes this size (e.g. 1GB)' },
};
