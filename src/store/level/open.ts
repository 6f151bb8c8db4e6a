import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { StoreError } from '../../base/errors/index.js';

// What LevelStore.open checks before LevelDB touches a directory, and how it names what
// went wrong after: apart from the store's reads and writes, as they run once, before
// there is a store.

/** The names of the files LevelDB itself writes (logs, tables, manifests, the lock, its info log). */
const LEVELDB_FILE = /^(?:LOCK|LOG|LOG\.old|CURRENT|MANIFEST-\d+|\d+\.(?:log|ldb|sst|dbtmp))$/;

/**
 * Refuses, before LevelDB writes anything there (it would add LOCK and LOG files even to
 * a directory it then fails to open, and adopt one that merely lacks a database), a path
 * that is a file, a directory holding other files but no CURRENT, or one whose CURRENT
 * does not name a manifest. A missing or empty directory is fine, and so is one holding
 * only LevelDB's own files: another revisit may be creating the store at this moment
 * (LevelDB then reports the lock), or a failed open left its LOCK and LOG behind.
 *
 * @example
 * await refuseForeign('notes.txt') // StoreError STORE_OPEN_FAILED: cannot open store notes.txt: it is a file, not a store directory; …
 */
export async function refuseForeign(dir: string): Promise<void> {
	const refuse = (why: string): StoreError => new StoreError('STORE_OPEN_FAILED', `cannot open store ${dir}: ${why}; it was left as it is`);
	const info = await stat(dir).catch(() => undefined);
	if (!info) return; // missing (created, or STORE_MISSING), or unreadable (LevelDB names the problem)
	if (!info.isDirectory()) throw refuse('it is a file, not a store directory');
	const entries = await readdir(dir).catch((): string[] => []);
	if (!entries.includes('CURRENT')) {
		const others = entries.filter((name) => !LEVELDB_FILE.test(name));
		if (others.length > 0) throw refuse(`it is not a LevelDB directory (no CURRENT file, and ${others.length} other entries)`);
		return;
	}
	// CURRENT is replaced atomically (written aside, then renamed), so a store in use never shows a partial one.
	const current = await readFile(path.join(dir, 'CURRENT'), 'latin1').catch(() => undefined);
	if (current !== undefined && !/^MANIFEST-\d+\n?$/.test(current)) throw refuse('it is not a LevelDB directory (its CURRENT file does not name a manifest)');
}

/**
 * The StoreError for a failed open: STORE_LOCKED when another process holds LevelDB's
 * lock, else STORE_OPEN_FAILED with LevelDB's own reason.
 *
 * @example
 * throw openError('.revisit', error) // StoreError STORE_LOCKED: store .revisit is locked: another revisit is using it
 */
export function openError(dir: string, error: unknown): StoreError {
	const cause = (error as { cause?: { code?: string; message?: string } }).cause;
	if (cause?.code === 'LEVEL_LOCKED') {
		return new StoreError('STORE_LOCKED', `store ${dir} is locked: another revisit is using it`, { cause: error });
	}
	const detail = cause?.message ?? (error as Error).message;
	return new StoreError('STORE_OPEN_FAILED', `cannot open store ${dir}: ${detail}`, { cause: error });
}
