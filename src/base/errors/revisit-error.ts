/**
 * Every code a RevisitError carries (docs/17-errors.md): the one list. `ErrorCode` is made
 * from it, the errors' constructors take only these, and the exit-status map must give
 * each one a status.
 */
export const ERROR_CODES = [
	'USAGE',
	'STORE_LOCKED',
	'STORE_OPEN_FAILED',
	'STORE_FORMAT',
	'STORE_WRITE_FAILED',
	'STORE_READ_FAILED',
	'STORE_MISSING',
	'STORE_CLOCK',
	'CONFIG_INVALID',
	'CONFIG_UNREADABLE',
	'SOURCE_FAILED',
	'SINK_FAILED',
	'FLEET_USAGE',
	'FLEET_NO_WORKERS',
	'FLEET_UNREACHABLE',
	'FLEET_FAILED',
	'OUTPUT_CLOSED',
	'NO_BROWSER',
	'RENDER_TIMEOUT',
	'RENDER_TOO_LARGE',
	'BROWSER_CRASHED',
	'RENDER_FAILED',
	'OPTION_INVALID',
	'EPRIVATE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Base class of every error revisit raises on purpose. `code` is stable across
 * versions and is what callers (and the exit-status map) branch on; messages may change.
 *
 * @example
 * try { await store.open() } catch (error) {
 *   if (error instanceof RevisitError && error.code === 'STORE_LOCKED') { ... }
 * }
 */
export class RevisitError extends Error {
	override name = 'RevisitError';
	readonly code: ErrorCode;

	constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
		super(message, options);
		this.code = code;
	}
}

/**
 * A command-line flag or argument is wrong. Exit status 2. `help` is false when `--help`
 * cannot help (a CSS selector's syntax, which the message already explains in full): the
 * CLI then does not point to it.
 */
export class UsageError extends RevisitError {
	override name = 'UsageError';
	readonly help: boolean;
	constructor(message: string, options?: { cause?: unknown; help?: boolean }) {
		super('USAGE', message, options);
		this.help = options?.help ?? true;
	}
}

/**
 * A library option is out of range or of the wrong kind (`concurrency: 0`, `method: 'post'`,
 * an option name that does not exist). `option` names it as the library spells it; the
 * message says what was expected and what was given. Code OPTION_INVALID, exit status 2,
 * as a usage error: the call, not revisit, is wrong.
 *
 * @example
 * catch (error) { if (error instanceof OptionError) console.error(`${error.option}: ${error.message}`); }
 */
export class OptionError extends RevisitError {
	override name = 'OptionError';
	readonly option: string;
	constructor(option: string, message: string, options?: { cause?: unknown }) {
		super('OPTION_INVALID', message, options);
		this.option = option;
	}
}

/**
 * The validator store could not be opened, read or written. Codes: STORE_OPEN_FAILED,
 * STORE_MISSING, STORE_LOCKED, STORE_FORMAT, STORE_READ_FAILED, STORE_WRITE_FAILED. Exit status 2.
 */
export class StoreError extends RevisitError {
	override name = 'StoreError';
	constructor(code: Extract<ErrorCode, `STORE_${string}`>, message: string, options?: { cause?: unknown }) {
		super(code, message, options);
	}
}

/**
 * A pipeline file or config object is invalid. `problems` holds one line a person can
 * act on per problem (where, which key, what was expected, what was found). Codes:
 * `CONFIG_INVALID` (syntax or schema) and `CONFIG_UNREADABLE` (the file can't be read);
 * both exit 2, and nothing runs.
 *
 * @example
 * catch (error) { if (error instanceof ConfigError) for (const line of error.problems) console.error(line); }
 */
export class ConfigError extends RevisitError {
	override name = 'ConfigError';
	readonly problems: readonly string[];

	constructor(problems: readonly string[], options?: { code?: 'CONFIG_INVALID' | 'CONFIG_UNREADABLE'; cause?: unknown }) {
		super(options?.code ?? 'CONFIG_INVALID', problems.length === 1 ? problems[0]! : `${problems.length} problems:\n${problems.join('\n')}`, options);
		this.problems = problems;
	}
}

/**
 * A pipeline's source or sink failed as a whole: `SOURCE_FAILED` (a file source can't be
 * read; exit 2) or `SINK_FAILED` (a sink can't be written, or its command failed; exit 1).
 * What was already written stays written and committed.
 */
export class PipelineError extends RevisitError {
	override name = 'PipelineError';
	constructor(code: 'SOURCE_FAILED' | 'SINK_FAILED', message: string, options?: { cause?: unknown }) {
		super(code, message, options);
	}
}
