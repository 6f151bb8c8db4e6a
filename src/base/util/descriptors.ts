import { readFileSync } from 'node:fs';

/** Descriptors kept for Node itself, stdio, pipes, output files and bodies being written. */
export const RESERVED_DESCRIPTORS = 64;

/**
 * LevelDB's `maxOpenFiles`: its own floor (64 table files + 10 others; it raises anything
 * lower to this), whatever the limit. LevelDB maps every table it holds open into memory,
 * and the pages it reads stay in RSS: with its default of 1000, a run that reads a whole
 * store of 10M URLs (605 tables of 2 MiB) had 1.2 GiB of them; with 74, 185 MiB. Looking
 * up 1M URLs took no longer with 74 than with 1000, on stores of 1M and 10M URLs
 * (bench/BUDGET.md): a table is reopened from the page cache at little cost.
 */
const LEVELDB_OPEN_FILES = 74;

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
 * Splits a descriptor limit so that the store can always open its files: LevelDB gets its
 * floor of 74 (see LEVELDB_OPEN_FILES), a reserve is kept for the rest of the process, and
 * the HTTP side's sockets get what is left, however many hosts a run meets. With no known
 * limit, sockets are not capped here.
 *
 * @example
 * descriptorBudget(256)  // { storeFiles: 74, sockets: 118 }
 * descriptorBudget(1024) // { storeFiles: 74, sockets: 886 }
 */
export function descriptorBudget(limit: number | undefined): DescriptorBudget {
	if (limit === undefined) return { storeFiles: LEVELDB_OPEN_FILES, sockets: Number.POSITIVE_INFINITY };
	return { storeFiles: LEVELDB_OPEN_FILES, sockets: Math.max(1, limit - LEVELDB_OPEN_FILES - RESERVED_DESCRIPTORS) };
}
