import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { waitForDescriptors } from '../../../src/net/http/descriptor-wait.js';
import type { Attempt } from '../../../src/net/http/request.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/out-of-descriptors.js', import.meta.url));

/** Runs the fixture (the built send(), see its header) under a limit of 128 descriptors. */
async function outOfDescriptors(mode: 'freed' | 'never'): Promise<Record<string, unknown>> {
	const child = spawn('prlimit', ['--nofile=128', process.execPath, FIXTURE, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const [code] = await once(child, 'close');
	expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
	return JSON.parse(stdout) as Record<string, unknown>;
}

const failed = (code: string): Attempt => ({
	retryable: false,
	result: { status: 0, finalUrl: 'http://x/', permanent: false, bytes: 0, ms: 0, error: { code, message: code } },
});
const answered: Attempt = { retryable: false, result: { status: 200, finalUrl: 'http://x/', permanent: false, bytes: 2, ms: 0, hash: 'h' } };
const wait = (budgetMs: number) => ({ budgetMs, now: () => performance.now(), random: () => 0, signal: new AbortController().signal });

describe('waitForDescriptors', () => {
	it('tries again after EMFILE and ENFILE, and returns the first other outcome', async () => {
		const outcomes = [failed('EMFILE'), failed('ENFILE'), failed('EMFILE'), answered];
		let tries = 0;
		const outcome = await waitForDescriptors(async () => outcomes[tries++]!, wait(60_000));
		expect(tries).toBe(4);
		expect(outcome).toBe(answered);
	});

	it('returns any other failure at once, as it came', async () => {
		let tries = 0;
		const refused = failed('ECONNREFUSED');
		expect(await waitForDescriptors(async () => (tries++, refused), wait(60_000))).toBe(refused);
		expect(tries).toBe(1);
	});

	it('past its budget, returns the failure as an ordinary retryable one', async () => {
		const outcome = await waitForDescriptors(async () => failed('EMFILE'), wait(0));
		expect(outcome.retryable).toBe(true);
		expect(outcome.result.error?.code).toBe('EMFILE');
	});

	it('stops waiting when its signal aborts', async () => {
		const controller = new AbortController();
		const pending = waitForDescriptors(async () => failed('EMFILE'), { ...wait(60_000), signal: controller.signal });
		controller.abort(new Error('stop'));
		await expect(pending).rejects.toThrow();
	});
});

describe('send() in a process out of file descriptors (real EMFILE, built CLI)', () => {
	it('waits for a descriptor instead of failing the URL, and does not count the wait as a retry', async () => {
		// The fixture allows no retries: an EMFILE that counted as one would be an error verdict.
		expect(await outOfDescriptors('freed')).toEqual({ probe: 'EMFILE', requestsWhileOut: 0, requests: 1, status: 200 });
	});

	it('gives up with EMFILE once the attempt may take no longer', async () => {
		expect(await outOfDescriptors('never')).toEqual({ probe: 'EMFILE', requestsWhileOut: 0, requests: 0, status: 0, error: 'EMFILE' });
	});
});
