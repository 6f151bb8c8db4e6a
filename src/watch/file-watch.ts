import { watch } from 'node:fs';
import path from 'node:path';

/**
 * Calls `changed` once a file has been still for `quietMs` (wall ms) after a change.
 * It watches the file's directory, not the file: an editor that saves by writing a new
 * file and renaming it over the old one replaces the inode a file watch would follow.
 * Throws when the directory can't be watched; later watch errors go to `failed`.
 * Returns the function that stops watching.
 *
 * @example
 * const stop = watchFile('urls.txt', () => reread(), (error) => console.error(error.message));
 */
export function watchFile(file: string, changed: () => void, failed: (error: Error) => void, quietMs = 200): () => void {
	const name = path.basename(file);
	let timer: NodeJS.Timeout | undefined;
	const watcher = watch(path.dirname(path.resolve(file)), (_event, filename) => {
		// Some platforms don't say which file changed: then it may be this one.
		if (filename !== null && filename !== name) return;
		clearTimeout(timer);
		timer = setTimeout(changed, quietMs);
	});
	watcher.on('error', failed);
	return () => {
		clearTimeout(timer);
		watcher.close();
	};
}
