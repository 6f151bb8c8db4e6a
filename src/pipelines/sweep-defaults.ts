import { builtInSweepDefaults as defaults } from '../config/defaults.js';
import { timeValue } from '../config/values.js';
import type { SweepOptions } from './sweep-options.js';

/**
 * Every knob's default (`config/defaults.ts`), checked here against the options' type;
 * `robots` from $REVISIT_ROBOTS when it is set (see `robotsDefault`).
 */
export const sweepDefaults: SweepOptions = { ...defaults, robots: robotsDefault(process.env), ...nowDefault(process.env) };

/**
 * `$REVISIT_NOW` (ISO 8601 or epoch ms) as the `now` option, when it is set: "now" for
 * simulations and tests that run the CLI, as `--now` says it.
 *
 * @example
 * nowDefault({ REVISIT_NOW: '1700000000000' }) // { now: 1700000000000 }
 */
export function nowDefault(env: NodeJS.ProcessEnv): { now?: number } {
	const value = env.REVISIT_NOW?.trim();
	if (value === undefined || value === '') return {};
	return { now: timeValue('now (or $REVISIT_NOW)')(value)! };
}

/**
 * Whether robots.txt is obeyed when no option says: `$REVISIT_ROBOTS` (`obey` or
 * `ignore`), else `obey`. The one default read from the environment, so that a machine
 * that only ever checks its owner's sites (a staging box, a CI job, this repository's
 * own test suite) can say so once for every command, pipeline file and library call.
 *
 * @example
 * robotsDefault({ REVISIT_ROBOTS: 'ignore' }) // 'ignore'
 */
export function robotsDefault(env: NodeJS.ProcessEnv): 'obey' | 'ignore' {
	const value = env.REVISIT_ROBOTS?.trim().toLowerCase();
	if (value === undefined || value === '') return defaults.robots;
	// Anything else fails normaliseSweepOptions's check, naming the variable.
	return value as 'obey' | 'ignore';
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
