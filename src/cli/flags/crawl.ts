import type { Options } from 'yargs';
import { fetchDefaults } from '../../pipelines/fetch.js';
import { integerFlag } from '../../config/values.js';

/** The fetch phase's own limits, for `crawl` and `sweep --fetch`. */
export const crawlFlagOptions: Record<'fetch-concurrency' | 'fetch-per-host', Options> = {
	'fetch-concurrency': { requiresArg: true, default: fetchDefaults.concurrency, coerce: integerFlag('fetch-concurrency', 1), describe: 'Fetch phase: downloads in flight in total' },
	'fetch-per-host': { requiresArg: true, default: fetchDefaults.perHost, coerce: integerFlag('fetch-per-host', 1), describe: 'Fetch phase: downloads in flight per origin' },
};
