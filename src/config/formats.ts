import { sweepSettings } from './settings.js';
import { isRedisSpec, parseRedisUrl } from '../store/redis-url.js';

/**
 * The string formats a pipeline file uses, each checked by the same code the CLI runs
 * on the matching flag (a duration by `--ttl`'s parser, a size by `--max-body`'s), so a
 * value a flag rejects is rejected in a file too. `text` says what is expected, for
 * error messages.
 *
 * @example
 * FORMATS.duration.validate('6h') // true
 */
export const FORMATS: Record<string, { validate(value: string): boolean; text: string; plural: string }> = {
	duration: { validate: accepts(sweepSettings.ttl.parse), text: 'a duration such as 30m, 6h or 2d', plural: 'durations such as 30m, 6h or 2d' },
	size: { validate: accepts(sweepSettings['max-body'].parse), text: 'a size such as 500000, 512KiB or 10MiB', plural: 'sizes' },
	header: {
		validate: (value) => accepts(sweepSettings['accept-encoding'].parse)(value) && value.trim() === value,
		text: 'printable ASCII text without leading or trailing spaces',
		plural: 'header values',
	},
	regex: { validate: (value) => regexProblem(value) === undefined, text: 'a regular expression', plural: 'regular expressions' },
	'redis-url': { validate: (value) => isRedisSpec(value) && parsesAsRedis(value), text: 'a Redis URL such as redis://127.0.0.1:6379/0?prefix=revisit:', plural: 'Redis URLs' },
	'http-url': { validate: (value) => /^https?:\/\//i.test(value) && URL.canParse(value), text: 'an absolute http(s) URL', plural: 'http(s) URLs' },
};

function parsesAsRedis(value: string): boolean {
	try {
		parseRedisUrl(value);
		return true;
	} catch {
		return false;
	}
}

/** Why `source` is not a valid JavaScript regular expression, or undefined. */
export function regexProblem(source: string): string | undefined {
	try {
		new RegExp(source);
		return undefined;
	} catch (error) {
		return (error as Error).message.replace(/^Invalid regular expression: /, '');
	}
}

function accepts(coerce: ((value: unknown) => unknown) | undefined): (value: string) => boolean {
	return (value) => {
		if (!coerce) return true;
		try {
			coerce(value);
			return true;
		} catch {
			return false;
		}
	};
}
