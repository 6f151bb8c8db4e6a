import { RevisitError, type ErrorCode } from './revisit-error.js';

/** Exit statuses, the one place they are defined. */
export const EXIT = {
	ok: 0,
	someFailed: 1,
	usage: 2,
	/** The churn guard held back some host's changes. */
	churnBlocked: 3,
	interrupted: 130,
	/** 128 + SIGPIPE, what a Unix tool reports when its reader goes away. */
	outputClosed: 141,
	internal: 70,
} as const;

/** Each code's status; the type makes a new code in ERROR_CODES need one here. */
const byCode: Record<ErrorCode, number> = {
	USAGE: EXIT.usage,
	OPTION_INVALID: EXIT.usage,
	STORE_LOCKED: EXIT.usage,
	STORE_OPEN_FAILED: EXIT.usage,
	STORE_MISSING: EXIT.usage,
	STORE_CLOCK: EXIT.usage,
	STORE_FORMAT: EXIT.usage,
	STORE_WRITE_FAILED: EXIT.usage,
	STORE_READ_FAILED: EXIT.usage,
	OUTPUT_CLOSED: EXIT.outputClosed,
	CONFIG_INVALID: EXIT.usage,
	CONFIG_UNREADABLE: EXIT.usage,
	SOURCE_FAILED: EXIT.usage,
	SINK_FAILED: EXIT.someFailed,
	FLEET_USAGE: EXIT.usage,
	FLEET_NO_WORKERS: EXIT.usage,
	FLEET_UNREACHABLE: EXIT.usage,
	FLEET_FAILED: EXIT.usage,
	NO_BROWSER: EXIT.usage,
	// A page that failed to render is one URL's failure (an error verdict); should one end a run, it failed in part.
	RENDER_TIMEOUT: EXIT.someFailed,
	RENDER_TOO_LARGE: EXIT.someFailed,
	BROWSER_CRASHED: EXIT.someFailed,
	RENDER_FAILED: EXIT.someFailed,
	// A request refused under --deny-private is one URL's failure too (the verdict's code).
	EPRIVATE: EXIT.someFailed,
};

/**
 * Maps an error that ended a run to the process exit status.
 * Unknown errors are bugs, and get 70 (EX_SOFTWARE) so they stand out from usage errors.
 *
 * @example
 * process.exitCode = exitStatusFor(new UsageError('bad flag')) // 2
 */
export function exitStatusFor(error: unknown): number {
	if (error instanceof RevisitError) {
		return byCode[error.code] ?? EXIT.internal;
	}
	return EXIT.internal;
}
