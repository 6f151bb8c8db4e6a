import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findApprise } from '../../../src/io/notify/apprise.js';
import { notifier } from '../../../src/io/notify/index.js';
import type { TestServer } from '../../helpers/server.js';
import { describeApprise } from '../../helpers/smtp.js';
import { startHangingHttp } from './hanging.js';
import { MESSAGE, startReceiver } from './receiver.js';

/** The apprise processes this test process started, with their command lines as `ps` shows them. */
const appriseChildren = (): Array<{ pid: number; cmdline: string }> =>
	readdirSync('/proc')
		.filter((entry) => /^\d+$/.test(entry))
		.flatMap((entry) => {
			try {
				// The parent's pid is the 4th field of stat, after the command's name in parentheses.
				const parent = Number(
					readFileSync(`/proc/${entry}/stat`, 'utf8')
						.replace(/^.*\) /s, '')
						.split(' ')[1],
				);
				const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
				return parent === process.pid && cmdline.includes('apprise') ? [{ pid: Number(entry), cmdline }] : [];
			} catch {
				return []; // Exited meanwhile.
			}
		});

let server: TestServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

describe('findApprise', () => {
	it('finds an executable apprise on the PATH, and nothing on a PATH without one', async () => {
		const dir = await mkdtemp(path.join(tmpdir(), 'revisit-apprise-'));
		try {
			await writeFile(path.join(dir, 'apprise'), '#!/bin/sh\n');
			await chmod(path.join(dir, 'apprise'), 0o755);
			expect(findApprise({ PATH: `/nonexistent${path.delimiter}${dir}` })).toBe(path.join(dir, 'apprise'));
			expect(findApprise({ PATH: '/nonexistent' })).toBeUndefined();
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});
});

describeApprise("Debian's apprise command", () => {
	it('delivers a json:// notification to a local server when told to go through apprise', async () => {
		const started = await startReceiver();
		server = started.server;
		const target = notifier(`json://${server.origin.slice('http://'.length)}/apprise`, { apprise: true });
		await target.send(MESSAGE);
		expect(started.received).toMatchObject([
			{
				method: 'POST',
				path: '/apprise',
				headers: { 'content-type': 'application/json' },
				body: { version: '1.0', title: MESSAGE.title, message: MESSAGE.body, type: 'info' },
			},
		]);
		expect(started.received[0]!.headers['user-agent']).toMatch(/apprise/i);
	});

	it('sends a scheme revisit does not know (form://) through apprise', async () => {
		const started = await startReceiver();
		server = started.server;
		await notifier(`form://${server.origin.slice('http://'.length)}/form`).send(MESSAGE);
		expect(started.received).toHaveLength(1);
		expect(started.received[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
		expect(Object.fromEntries(new URLSearchParams(String(started.received[0]!.body)))).toEqual({
			version: '1.0',
			title: MESSAGE.title,
			message: MESSAGE.body,
			type: 'info',
		});
	});

	it("rejects when apprise fails, its output free of the URL's parts", async () => {
		const started = await startReceiver(() => [500]);
		server = started.server;
		const target = notifier(`json://user:hunter22@${server.origin.slice('http://'.length)}/x`, { apprise: true, timeoutMs: 30_000 });
		// Any part of a URL apprise reads may be a token: all are hidden but the scheme and the port.
		expect(target.shown).toBe(`json://***:***@***:${new URL(server.origin).port}/***`);
		const error = (await target.send(MESSAGE).catch((e: Error) => e)) as Error;
		expect(error.message).toMatch(/^apprise exited with status 1/);
		expect(error.message).not.toContain('hunter22');
	});

	it('what apprise says of a URL it cannot read reaches the error with the URL withheld', async () => {
		const target = notifier('xyzq://tok@host/chan', { timeoutMs: 30_000 });
		const error = (await target.send(MESSAGE).catch((e: Error) => e)) as Error;
		expect(error.message).toMatch(/^apprise exited with status 1: Unparseable URL \*\*\*/);
		// `tok` is too short to be hidden as a secret of its own: apprise's output must not carry it.
		expect(error.message).not.toMatch(/:\/\/|tok|Usage/);
	});

	it("the URL is not on apprise's command line: its secrets never show in ps", async () => {
		const hanging = await startHangingHttp();
		try {
			const target = notifier(`json://revisit:Pass-Word-123@${hanging.host}:${hanging.port}/hook?+X-Token=Token-Secret-456`, {
				apprise: true,
				timeoutMs: 60_000,
			});
			const sent = target.send(MESSAGE);
			// The request is held until the command line has been read: apprise is running.
			await hanging.reached;
			const [child, ...more] = appriseChildren();
			expect(more).toEqual([]);
			expect(child!.cmdline).toContain('--config');
			expect(child!.cmdline).not.toMatch(/Pass-Word-123|Token-Secret-456|json:\/\//);
			hanging.release();
			await sent;
			// The file that held the URL is gone with apprise.
			const config = /--config (\S+)/.exec(child!.cmdline)![1]!;
			expect(existsSync(config)).toBe(false);
			expect(existsSync(path.dirname(config))).toBe(false);
		} finally {
			await hanging.close();
		}
	});

	it('an abort kills apprise at once, long before the deadline, and the send rejects', async () => {
		const hanging = await startHangingHttp();
		try {
			const controller = new AbortController();
			const sent = notifier(`json://${hanging.host}:${hanging.port}/hook`, { apprise: true, timeoutMs: 10 * 60_000 }).send(MESSAGE, controller.signal);
			await hanging.reached;
			const [child] = appriseChildren();
			controller.abort();
			await expect(sent).rejects.toThrow(/stopped/);
			expect(existsSync(`/proc/${child!.pid}`)).toBe(false);
		} finally {
			await hanging.close();
		}
	});

	it('past the deadline apprise is killed and the send rejects, saying so', async () => {
		const hanging = await startHangingHttp();
		try {
			const sent = notifier(`json://${hanging.host}:${hanging.port}/hook`, { apprise: true, timeoutMs: 2000 }).send(MESSAGE);
			await hanging.reached;
			const [child] = appriseChildren();
			await expect(sent).rejects.toThrow('apprise did not finish within 2000 ms');
			expect(existsSync(`/proc/${child!.pid}`)).toBe(false);
		} finally {
			await hanging.close();
		}
	});
});
