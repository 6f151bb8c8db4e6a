import { GROUP, type Flag } from './groups.js';
import { crawlSettings } from '../../config/settings.js';
import { flagOf } from './setting.js';

/** The fetch phase's own limits, for `crawl` and `sweep --fetch`. */
export const crawlFlagOptions: Record<'fetch-concurrency' | 'fetch-per-host', Flag> = {
	'fetch-concurrency': { group: GROUP.scale, ...flagOf(crawlSettings['fetch-concurrency']), requiresArg: true, describe: 'Fetch phase: downloads in flight in total' },
	'fetch-per-host': { group: GROUP.politeness, ...flagOf(crawlSettings['fetch-per-host']), requiresArg: true, describe: 'Fetch phase: downloads in flight per origin' },
};
