import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes `data` to `file` atomically: into a temporary file in the same directory (a
 * dotfile ending in .tmp, so collectors and globs for the real name ignore it), then
 * renamed over `file`. A reader sees the old file or the new one, never half of one,
 * and a failed write leaves no temporary file behind. `sync` (default true) flushes the
 * data to disk before the rename; callers that only need atomicity against a killed
 * process, not against a power cut, turn it off to save an fsync per file. `mode`
 * (default 0o644) is the new file's permissions: 0o600 for a file that holds secrets.
 *
 * @example
 * await writeFileAtomic('metrics.prom', text);
 * await writeFileAtomic(bodyPath, body, { sync: false });
 */
export async function writeFileAtomic(file: string, data: string | Buffer, options: { sync?: boolean; mode?: number } = {}): Promise<void> {
	const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
	try {
		const handle = await open(temp, 'w', options.mode ?? 0o644);
		try {
			await handle.writeFile(data);
			if (options.sync ?? true) await handle.sync();
		} finally {
			await handle.close();
		}
		await rename(temp, file);
	} catch (error) {
		await unlink(temp).catch(() => {});
		throw error;
	}
}
