import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { counted } from '../../base/util/counted.js';

// A LevelDB store holds page texts, versions and the outbox's targets (tokens among
// them): only its owner may read it. LevelDB creates its files with the process's umask
// (0644 under the usual 022), and setting the umask around an open would change it for
// the whole process, whatever else it is writing at the time. So the directory is made
// 0700, which keeps every file in it out of other users' reach whatever its own mode, and
// the files are made 0600 after LevelDB has written them: at open, after a reopen, at close.

/** The group's and others' permission bits: what no part of a store keeps. */
const OTHERS = 0o077;

/** A directory or file whose mode was narrowed: its path, its mode before and after. */
export interface Narrowed {
	path: string;
	directory: boolean;
	from: number;
	to: number;
}

/**
 * Makes the store directory `dir` with mode 0700 (its parents as the umask has them),
 * unless it is there already. True when it made it.
 *
 * @example
 * await makePrivateDir('.revisit') // true: .revisit is new, and drwx------
 */
export async function makePrivateDir(dir: string): Promise<boolean> {
	const full = path.resolve(dir);
	await mkdir(path.dirname(full), { recursive: true });
	try {
		await mkdir(full, { mode: 0o700 });
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
		throw error;
	}
	// The umask applies to mkdir's mode too, and may have taken the owner's bits.
	await chmod(full, 0o700);
	return true;
}

/**
 * Takes the group's and others' bits off `dir` and everything under it (symbolic links
 * are left alone: a link's mode means nothing, and its target is not the store's), and
 * says what it changed. A file that goes away meanwhile, or that this user may not
 * change, is passed over.
 *
 * @example
 * await narrowModes('.revisit') // [{ path: '.revisit', directory: true, from: 0o755, to: 0o700 }, …]
 */
export async function narrowModes(dir: string): Promise<Narrowed[]> {
	const narrowed: Narrowed[] = [];
	const visit = async (at: string): Promise<void> => {
		const info = await lstat(at).catch(() => undefined);
		if (!info || info.isSymbolicLink()) return;
		const from = info.mode & 0o7777;
		if ((from & OTHERS) !== 0) {
			const to = from & ~OTHERS;
			if (
				await chmod(at, to).then(
					() => true,
					() => false,
				)
			)
				narrowed.push({ path: at, directory: info.isDirectory(), from, to });
		}
		if (info.isDirectory()) await Promise.all((await readdir(at).catch((): string[] => [])).map((name) => visit(path.join(at, name))));
	};
	await visit(dir);
	return narrowed;
}

/**
 * The one line that says a store was narrowed: what other users could reach, and what
 * it is now, modes grouped.
 *
 * @example
 * describeNarrowed('.revisit', narrowed) // 'store .revisit was open to other users: made its directory 0700 (was 0755) and 6 files 0600 (were 0644)'
 */
export function describeNarrowed(dir: string, narrowed: readonly Narrowed[]): string {
	const root = path.resolve(dir);
	const groups = new Map<string, number>();
	for (const entry of narrowed) {
		const kind = path.resolve(entry.path) === root ? 'root' : entry.directory ? 'directory' : 'file';
		const key = `${kind} ${octal(entry.to)} ${octal(entry.from)}`;
		groups.set(key, (groups.get(key) ?? 0) + 1);
	}
	const parts = [...groups].map(([key, count]) => {
		const [kind, to, from] = key.split(' ') as [string, string, string];
		const what = kind === 'root' ? 'its directory' : kind === 'directory' ? counted(count, 'directory', 'directories') : counted(count, 'file');
		return `${what} ${to} (${count === 1 ? 'was' : 'were'} ${from})`;
	});
	return `store ${dir} was open to other users: made ${parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`}`;
}

const octal = (mode: number): string => `0${mode.toString(8).padStart(3, '0')}`;
