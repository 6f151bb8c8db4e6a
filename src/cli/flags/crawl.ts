import { crawlSettings } from '../../config/settings.js';
import { flagsOf } from './setting.js';
import { accessFlagOptions } from './access.js';
import { feedFlagOptions } from './feeds.js';
import { ruleFlagOptions } from './rules.js';
import { sweepFlagOptions } from './sweep.js';
import { warcFlagOptions } from './warc.js';

/** The fetch phase's own limits, for `crawl` and `sweep --fetch`, from their rows. */
export const crawlFlagOptions = flagsOf(crawlSettings);

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
