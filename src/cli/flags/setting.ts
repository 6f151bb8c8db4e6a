import type { Options } from 'yargs';
import type { Setting } from '../../config/settings.js';

/**
 * A setting as yargs takes it: its default, and its check as `coerce` (a bad value names
 * the flag and exits 2). The flag table adds the type and the description.
 *
 * @example
 * concurrency: { ...flagOf(sweepSettings.concurrency), requiresArg: true, describe: 'Requests in flight in total' }
 */
export function flagOf(setting: Setting): Omit<Options, 'group'> {
	return { ...(setting.default === undefined ? {} : { default: setting.default }), ...(setting.parse ? { coerce: setting.parse } : {}) };
}
