import { trustDefaults } from '../net/hosts/trust-options.js';

/**
 * The defaults of the library's options that no setting gives (`config/settings.ts`
 * holds the others, as a user writes them): `pipelines/sweep-defaults.ts` puts the two
 * together. Times are in ms.
 *
 * @example
 * libraryDefaults.highWater // 64
 */
export const libraryDefaults = {
	retryDelayMs: 1000,
	highWater: 64,
	trust: trustDefaults,
	candidates: false,
	capture: false,
	learnNoise: false,
	/** Obey each origin's robots.txt (RFC 9309), unless the option or $REVISIT_ROBOTS says `ignore`. */
	robots: 'obey' as 'obey' | 'ignore',
};

/** The fetch phase's limits (`revisit fetch`, a crawl's second phase); the sweep's other options apply as they are. */
export const fetchDefaults = { concurrency: 6, perHost: 2, highWater: 64 } as const;
