import { libraryDefaults } from '../config/defaults.js';
import { envValues, optionDefaults, optionsOf } from '../config/setting-row.js';
import { sweepSettings } from '../config/settings.js';
import type { SweepOptions, SweepOptionsInput } from './sweep-options.js';

const { trust, render: _render, ...fromSettings } = optionDefaults(sweepSettings);

/**
 * Every option's default: the settings' defaults (`config/settings.ts`) in the options'
 * units, and the library's own (`config/defaults.ts`). No rendering: a run renders only
 * when told to. The environment's defaults are apart (`envDefaults`).
 *
 * @example
 * sweepDefaults.maxCrawlDelayMs // 30000
 */
export const sweepDefaults = { ...libraryDefaults, ...fromSettings, trust: { ...libraryDefaults.trust, ...(trust as object) } } as SweepOptions;

/**
 * The options the environment gives where a run does not say: `$REVISIT_ROBOTS`,
 * `$REVISIT_NOW` and `$REVISIT_BROWSER` (each setting names its variable). The one
 * place the environment is read for options, called once per run with that run's
 * environment (the CLI's, a pipeline's, the library caller's), never at import.
 *
 * @example
 * envDefaults({ REVISIT_ROBOTS: 'ignore', REVISIT_NOW: '1700000000000' }) // { robots: 'ignore', now: 1700000000000 }
 */
export function envDefaults(env: Record<string, string | undefined>): SweepOptionsInput {
	return optionsOf(sweepSettings, envValues(sweepSettings, env)) as SweepOptionsInput;
}

/**
 * The crawler's name robots.txt groups are matched against: `robotsAgent`, else the
 * User-Agent up to its first `/` or space.
 *
 * @example
 * robotsAgentOf({ userAgent: 'revisit/0.1 (+https://x)' }) // 'revisit'
 */
export function robotsAgentOf(options: Pick<SweepOptions, 'userAgent' | 'robotsAgent'>): string {
	return options.robotsAgent ?? (options.userAgent.split(/[/\s]/)[0] || options.userAgent);
}
