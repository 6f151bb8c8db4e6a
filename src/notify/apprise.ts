import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import type { Message } from './types.js';

/**
 * Where the `apprise` command is on the PATH, or undefined.
 *
 * @example
 * findApprise(process.env) // '/usr/bin/apprise'
 */
export function findApprise(env: NodeJS.ProcessEnv): string | undefined {
	for (const dir of (env['PATH'] ?? '').split(path.delimiter).filter(Boolean)) {
		const candidate = path.join(dir, 'apprise');
		try {
			accessSync(candidate, constants.X_OK);
			return candidate;
		} catch {
			// Not here; the next directory.
		}
	}
	return undefined;
}

/**
 * Sends one message through the apprise command (`apprise -vv -t TITLE -b BODY URL`),
 * without a shell, so that nothing in the URL or the message is read as shell syntax.
 * Rejects with the end of apprise's output when it exits non-zero (the caller hides the
 * URL's secrets in it).
 *
 * @example
 * await sendApprise('/usr/bin/apprise', 'pover://user@token', message, 15_000, process.env)
 */
export function sendApprise(command: string, url: string, message: Message, timeoutMs: number, env: NodeJS.ProcessEnv): Promise<void> {
	return new Promise((resolve, reject) => {
		execFile(command, ['-vv', '-t', message.title, '-b', message.body, url], { timeout: timeoutMs, env, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
			if (!error) return resolve();
			const said = `${stdout}\n${stderr}`
				.split('\n')
				.map((line) => line.trim())
				.filter((line) => /error|fail|warn/i.test(line))
				.slice(-3)
				.join('; ');
			const how = error.killed ? `timed out after ${timeoutMs} ms` : `exited with status ${String(error.code)}`;
			reject(new Error(`apprise ${how}${said ? `: ${said}` : ''}`));
		});
	});
}
