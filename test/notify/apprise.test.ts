import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findApprise } from '../../src/notify/apprise.js';
import { notifier } from '../../src/notify/index.js';
import type { TestServer } from '../helpers/server.js';
import { describeApprise } from '../helpers/smtp.js';
import { MESSAGE, startReceiver } from './receiver.js';

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
		expect(started.received).toMatchObject([{ method: 'POST', path: '/apprise', headers: { 'content-type': 'application/json' }, body: { version: '1.0', title: MESSAGE.title, message: MESSAGE.body, type: 'info' } }]);
		expect(started.received[0]!.headers['user-agent']).toMatch(/apprise/i);
	});

	it('sends a scheme revisit does not know (form://) through apprise', async () => {
		const started = await startReceiver();
		server = started.server;
		await notifier(`form://${server.origin.slice('http://'.length)}/form`).send(MESSAGE);
		expect(started.received).toHaveLength(1);
		expect(started.received[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
		expect(Object.fromEntries(new URLSearchParams(String(started.received[0]!.body)))).toEqual({ version: '1.0', title: MESSAGE.title, message: MESSAGE.body, type: 'info' });
	});

	it('rejects when apprise fails, its output free of the URL\'s parts', async () => {
		const started = await startReceiver(() => [500]);
		server = started.server;
		const target = notifier(`json://user:hunter22@${server.origin.slice('http://'.length)}/x`, { apprise: true, timeoutMs: 30_000 });
		// Any part of a URL apprise reads may be a token: all are hidden but the scheme and the port.
		expect(target.shown).toBe(`json://***:***@***:${new URL(server.origin).port}/***`);
		const error = (await target.send(MESSAGE).catch((e: Error) => e)) as Error;
		expect(error.message).toMatch(/^apprise exited with status 1/);
		expect(error.message).not.toContain('hunter22');
	});
});
