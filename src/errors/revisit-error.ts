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
	readonly code: string;

	constructor(code: string, message: string, options?: { cause?: unknown }) {
		super(message, options);
		this.code = code;
	}
}

/** A command-line flag or argument is wrong. Exit status 2. */
export class UsageError extends RevisitError {
	override name = 'UsageError';
	constructor(message: string, options?: { cause?: unknown }) {
		super('USAGE', message, options);
	}
}

/** The validator store could not be opened or written. Exit status 2. */
export class StoreError extends RevisitError {
	override name = 'StoreError';
}

/** Per-URL failure, carried as data in an `error` verdict, never thrown through a stream. */
export class ProbeError extends RevisitError {
	override name = 'ProbeError';
}
