import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startDeadline } from './deadline.js';
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

/** How one apprise run is bounded, and where it runs. */
export interface AppriseRun {
	/** Past this, apprise is killed and the send rejects. */
	timeoutMs: number;
	env: NodeJS.ProcessEnv;
	/** Aborts the run (a stopped run): apprise is killed and the send rejects. */
	signal?: AbortSignal | undefined;
}

/** How long apprise has to exit after a SIGTERM before it gets a SIGKILL. */
const GRACE_MS = 2000;

/** How much of apprise's output is kept to say why it failed: its last lines. */
const KEPT_CHARS = 64 * 1024;

/**
 * Sends one message through the apprise command (`apprise -vv --config FILE -t TITLE -b
 * BODY`), without a shell, so that nothing in the URL or the message is read as shell
 * syntax. The URL is not on apprise's command line, where `ps` shows it to every user of
 * the machine: it is in FILE, an apprise YAML config (mode 0600, in a directory of its own
 * of mode 0700) removed once apprise has exited. At `timeoutMs`, or when `signal` aborts,
 * apprise's process group gets a SIGTERM, then a SIGKILL 2 s later, and the send rejects
 * once it has exited. When apprise exits non-zero, rejects with its first error lines, any
 * URL in them withheld (the caller hides the URL's other secrets).
 *
 * @example
 * await sendApprise('/usr/bin/apprise', 'pover://user@token', message, { timeoutMs: 15_000, env: process.env, signal })
 */
export async function sendApprise(command: string, url: string, message: Message, run: AppriseRun): Promise<void> {
	const ended = await withConfig(url, (config) => runApprise(command, ['-vv', '--config', config, '-t', message.title, '-b', message.body], run));
	if (ended.code !== 0) throw new Error(`apprise exited with ${ended.code === null ? `signal ${ended.signal}` : `status ${ended.code}`}${said(ended.output)}`);
}

/**
 * Whether apprise can load `url`: its dry run (`apprise --dry-run --config FILE`), which
 * parses the URL and sends nothing. The URL goes in a 0600 config file, as `sendApprise`
 * passes it. Resolves false when apprise refuses it (an unknown scheme, a URL its service
 * cannot read: it exits non-zero); rejects at the deadline, on `signal`, or when apprise
 * cannot be started. What apprise printed is not kept: it shows secrets abbreviated (`p...3`).
 *
 * @example
 * await appriseLoads('/usr/bin/apprise', 'jsno://x', { timeoutMs: 15_000, env: process.env }) // false
 */
export async function appriseLoads(command: string, url: string, run: AppriseRun): Promise<boolean> {
	const ended = await withConfig(url, (config) => runApprise(command, ['--dry-run', '--config', config, '-t', 'revisit', '-b', 'check'], run));
	return ended.code === 0;
}

/**
 * Runs `use` with the path of an apprise YAML config holding `url`, then removes it. The
 * URL is not put on apprise's command line, where `ps` shows it to every user of the machine.
 */
async function withConfig<T>(url: string, use: (config: string) => Promise<T>): Promise<T> {
	// mkdtemp makes the directory 0700: no one else can list it, open the file, or swap it.
	const dir = await mkdtemp(path.join(tmpdir(), 'revisit-apprise-'));
	try {
		const config = path.join(dir, 'notify.yml');
		// A JSON string is a YAML string: quoting that no character of a URL can break.
		await writeFile(config, `version: 1\nurls:\n  - ${JSON.stringify(url)}\n`, { mode: 0o600, flag: 'wx' });
		return await use(config);
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}

/** How an apprise run ended: its exit status (null when killed), and the last of what it printed. */
interface AppriseEnd {
	code: number | null;
	signal: NodeJS.Signals | null;
	output: string;
}

/** Runs apprise to its exit; rejects at the deadline, on the run's signal, or when it cannot be started. */
function runApprise(command: string, args: string[], run: AppriseRun): Promise<AppriseEnd> {
	return new Promise((resolve, reject) => {
		const deadline = startDeadline(run.timeoutMs, 'apprise', run.signal);
		// Its own process group, so that a kill reaches what a wrapper script (pipx's) started too.
		const child = spawn(command, args, { env: run.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
		let output = '';
		const keep = (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-KEPT_CHARS));
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		let killer: NodeJS.Timeout | undefined;
		const kill = (signal: NodeJS.Signals) => {
			try {
				process.kill(-child.pid!, signal);
			} catch {
				// Gone already.
			}
		};
		const onAbort = () => {
			if (child.pid === undefined) return;
			kill('SIGTERM');
			killer = setTimeout(() => kill('SIGKILL'), GRACE_MS);
		};
		deadline.signal.addEventListener('abort', onAbort, { once: true });
		if (deadline.signal.aborted) onAbort();
		let settled = false;
		const settle = (error: Error | undefined, end?: AppriseEnd) => {
			if (settled) return;
			settled = true;
			deadline.clear();
			clearTimeout(killer);
			deadline.signal.removeEventListener('abort', onAbort);
			if (deadline.signal.aborted) reject(deadline.signal.reason as Error);
			else if (error || !end) reject(error);
			else resolve(end);
		};
		child.once('error', (error) => settle(new Error(`apprise could not be started: ${error.message}`)));
		child.once('close', (code, signal) => settle(undefined, { code, signal, output }));
	});
}

/**
 * apprise's first error and warning lines (the first says why; the rest follow from it),
 * without their time stamps, each URL in them replaced by `***`: apprise prints URLs (in
 * full, or with a token's first and last characters), which the caller's hiding of whole
 * secrets would miss. Its usage text, which follows some errors, is left out.
 */
const said = (output: string): string => {
	const lines = output
		.split('\n')
		.flatMap((line) => /^[\d-]+ [\d:,.]+ - (?:WARNING|ERROR|CRITICAL) - (.*)$/.exec(line.trim())?.slice(1) ?? [])
		.map((line) => line.replace(/[a-z][a-z0-9+.-]*:\/\/\S*/gi, '***'));
	const first = [...new Set(lines)].slice(0, 3);
	return first.length > 0 ? `: ${first.join('; ')}` : '';
};
