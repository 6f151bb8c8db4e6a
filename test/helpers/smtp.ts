import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeNeeding, findProgram } from './debian.js';
import { freePort } from '../interop/servers/launch.js';
import { listening } from './listening.js';

/** How to get the SMTP server and apprise on Debian; named by the one skip line. */
export const AIOSMTPD_INSTALL = 'apt-get install -y python3-aiosmtpd';
export const APPRISE_INSTALL = 'apt-get install -y apprise';

/** Debian's python3 when it can import aiosmtpd (a pyenv or venv python on the PATH may not). */
export const SMTP_PYTHON = ['/usr/bin/python3', findProgram('python3')].find((python) => {
	if (!python) return false;
	try {
		execFileSync(python, ['-c', 'import aiosmtpd'], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
});

/** apprise's absolute path, or undefined when it is not installed. */
export const APPRISE = findProgram('apprise');

/** A describe block needing python3-aiosmtpd: skipped with one line when it is missing, failing under CI=true. */
export function describeSmtp(name: string, body: () => void): void {
	describeNeeding({ name: 'python3-aiosmtpd', path: SMTP_PYTHON, install: AIOSMTPD_INSTALL }, name, body);
}

/** A describe block needing Debian's apprise: skipped with one line when it is missing, failing under CI=true. */
export function describeApprise(name: string, body: () => void): void {
	describeNeeding({ name: 'apprise', path: APPRISE, install: APPRISE_INSTALL }, name, body);
}

/** One mail as the server received it (test/fixtures/smtp_keep.py). */
export interface ReceivedMail {
	from: string;
	to: string[];
	subject: string;
	/** The text body, decoded. */
	body: string;
	/** The message as sent. */
	data: string;
}

export interface TestSmtp {
	host: string;
	port: number;
	/** The mails received so far. */
	mails(): Promise<ReceivedMail[]>;
	stop(): Promise<void>;
}

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/**
 * Starts aiosmtpd on a free port of 127.0.0.1, keeping each mail in a temp file; stopped by its pid.
 *
 * @example
 * const smtp = await startSmtp();
 * try { ... mailto://127.0.0.1:${smtp.port} ... expect(await smtp.mails()).toHaveLength(1) } finally { await smtp.stop() }
 */
export async function startSmtp(): Promise<TestSmtp> {
	const dir = await mkdtemp(path.join(tmpdir(), 'revisit-smtp-'));
	const port = await freePort();
	const kept = path.join(dir, 'mails.ndjson');
	const child = spawn(SMTP_PYTHON!, ['-m', 'aiosmtpd', '-n', '-l', `127.0.0.1:${port}`, '-c', 'smtp_keep.Keep', kept], {
		stdio: ['ignore', 'ignore', 'pipe'],
		env: { ...process.env, PYTHONPATH: FIXTURES },
	});
	let stderr = '';
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	await listening(child, port, 'aiosmtpd', () => stderr);
	return {
		host: '127.0.0.1',
		port,
		mails: async () =>
			(await readFile(kept, 'utf8').catch(() => ''))
				.split('\n')
				.filter(Boolean)
				.map((line) => JSON.parse(line) as ReceivedMail),
		async stop() {
			if (child.exitCode === null) {
				process.kill(child.pid!, 'SIGTERM');
				await exited;
			}
			await rm(dir, { recursive: true, force: true });
		},
	};
}
