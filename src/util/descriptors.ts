import { readFileSync } from 'node:fs';

/** Descriptors kept for Node itself, stdio, pipes, output files and bodies being written. */
export const RESERVED_DESCRIPTORS = 64;

/** LevelDB's own floor for `maxOpenFiles` (64 table files + 10 others): it raises anything lower to this. */
const LEVELDB_MIN_OPEN_FILES = 74;
const LEVELDB_DEFAULT_OPEN_FILES = 1000;

/**
 * The process's soft limit on open files (RLIMIT_NOFILE), as Node left it (it raises the
 * soft limit to the hard one at start), or undefined where it can't be read (not Linux,
 * or unlimited).
 *
 * @example
 * openFileLimit() // 1024 under `ulimit -n 1024`
 */
export function openFileLimit(readLimits: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | undefined {
	let text: string;
	try {
		text = readLimits();
	} catch {
		return undefined;
	}
	const soft = /^Max open files\s+(\S+)/m.exec(text)?.[1];
	return soft !== undefined && /^\d+$/.test(soft) ? Number(soft) : undefined;
}

/** How a run shares its descriptor limit between the store and the HTTP side. */
export interface DescriptorBudget {
	/** LevelDB's `maxOpenFiles`: every file it holds, tables, logs, manifest and lock included. */
	storeFiles: number;
	/** Sockets the HTTP side may have open at once, in use and idle: what is left after the store and the reserve. */
	sockets: number;
}

/**
 * Splits a descriptor limit so that the store can always open its files: LevelDB gets a
 * quarter (within its own bounds, 74 to its default 1000), a reserve is kept for the rest
 * of the process, and the HTTP side's sockets get what is left, however many hosts a run
 * meets. With no known limit, LevelDB keeps its default and sockets are not capped here.
 *
 * @example
 * descriptorBudget(256)  // { storeFiles: 74, sockets: 118 }
 * descriptorBudget(1024) // { storeFiles: 256, sockets: 704 }
 */
export function descriptorBudget(limit: number | undefined): DescriptorBudget {
	if (limit === undefined) return { storeFiles: LEVELDB_DEFAULT_OPEN_FILES, sockets: Number.POSITIVE_INFINITY };
	const storeFiles = Math.min(LEVELDB_DEFAULT_OPEN_FILES, Math.max(LEVELDB_MIN_OPEN_FILES, Math.floor(limit / 4)));
	return { storeFiles, sockets: Math.max(1, limit - storeFiles - RESERVED_DESCRIPTORS) };
}
