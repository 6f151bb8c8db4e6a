import { GROUP, type FlagsFor } from './groups.js';
import { crawlSettings } from '../../config/settings.js';
import { flagOf } from './setting.js';
import { accessFlagOptions } from './access.js';
import { feedFlagOptions } from './feeds.js';
import { ruleFlagOptions } from './rules.js';
import { sweepFlagOptions } from './sweep.js';
import { warcFlagOptions } from './warc.js';

/** The fetch phase's own limits, for `crawl` and `sweep --fetch`. */
export const crawlFlagOptions: FlagsFor<{ 'fetch-concurrency': number; 'fetch-per-host': number }> = {
	'fetch-concurrency': {
		group: GROUP.scale,
		...flagOf(crawlSettings['fetch-concurrency']),
		requiresArg: true,
		describe: 'Fetch phase: downloads in flight in total',
	},
	'fetch-per-host': {
		group: GROUP.politeness,
		...flagOf(crawlSettings['fetch-per-host']),
		requiresArg: true,
		describe: 'Fetch phase: downloads in flight per origin',
	},
};

/**
 * Every flag of a run that sweeps and may fetch what changed (`sweep`, `crawl`): content rules, the sweep's, access, WARC, feeds and the fetch phase's limits.
 */
export const crawlRunFlagOptions = {
	...ruleFlagOptions,
	...sweepFlagOptions,
	...accessFlagOptions,
	...warcFlagOptions,
	...feedFlagOptions,
	...crawlFlagOptions,
};
