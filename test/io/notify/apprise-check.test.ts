import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/base/errors/index.js';
import { run } from '../../../src/api/pipeline.js';
import { MemoryStore } from '../../../src/store/level/memory.js';
import { notifier } from '../../../src/io/notify/index.js';
import { startServer } from '../../helpers/server.js';
import { describeApprise } from '../../helpers/smtp.js';
import { startReceiver } from './receiver.js';

/** A sleep that a PATH of the fake apprise alone still finds. */
const SLEEP = ['/usr/bin/sleep', '/bin/sleep'].find((candidate) => existsSync(candidate))!;

describeApprise("Notifier.check: apprise's dry run", () => {
	it("refuses a scheme apprise does not know with a UsageError that shows neither the password nor apprise's abbreviation of it", async () => {
		const target = notifier('jsno://user:p4ssw0rd3@127.0.0.1/x');
		const error = (await target.check().catch((e: Error) => e)) as Error;
		expect(error).toBeInstanceOf(UsageError);
		expect(error.message).toBe(
			'notify URL jsno://***:***@***/***: apprise cannot load it (apprise --dry-run refused it: ' +
				'a scheme apprise does not know, or a URL its service cannot read); apprise --details lists the schemes it knows',
		);
		expect(error.message).not.toMatch(/p4ssw0rd3|p\.\.\.3/);
	});

	it('passes a URL apprise can load, and sends it nothing', async () => {
		const { server, received } = await startReceiver();
		try {
			await notifier(`form://${server.origin.slice('http://'.length)}/form`).check();
			await notifier(`json://${server.origin.slice('http://'.length)}/json`, { apprise: true }).check();
			expect(received).toEqual([]);
		} finally {
			await server.close();
		}
	});
});

describeApprise('the library runs a pipeline only once apprise has loaded its notify URLs', () => {
	it("run() rejects with a UsageError at the sink's path before the origin sees a request", async () => {
		const site = await startServer((_req, res) => void res.writeHead(200).end('page'));
		try {
			const config = {
				source: { type: 'urls' as const, urls: [site.url('/lib')] },
				sinks: [{ type: 'notify' as const, urls: ['jsno://user:p4ssw0rd3@127.0.0.1/x'], new: true }],
			};
			const error = (await run(config, { store: new MemoryStore(), env: { PATH: process.env['PATH'] } }).catch((e: Error) => e)) as Error;
			expect(error).toBeInstanceOf(UsageError);
			expect(error.message).toMatch(/^pipeline: \/sinks\/0: notify URL jsno:\/\/\*\*\*:\*\*\*@\*\*\*\/\*\*\*: apprise cannot load it/);
			expect(site.requests).toEqual([]);
		} finally {
			await site.close();
		}
	});
});

describe('Notifier.check: an apprise that does not answer', () => {
	it('is killed at the deadline, and the check rejects with a UsageError saying so, its config file gone', async () => {
		const dir = await mkdtemp(path.join(tmpdir(), 'revisit-fake-apprise-'));
		try {
			await writeFile(path.join(dir, 'apprise'), `#!/bin/sh\necho $$ > ${dir}/pid\necho "$@" > ${dir}/args\nexec ${SLEEP} 600\n`);
			await chmod(path.join(dir, 'apprise'), 0o755);
			const error = (await notifier('pover://userkey1234@apptoken5678', { timeoutMs: 300, env: { PATH: dir } })
				.check()
				.catch((e: Error) => e)) as Error;
			expect(error).toBeInstanceOf(UsageError);
			expect(error.message).toBe('notify URL pover://***@*** could not be checked with apprise --dry-run: apprise did not finish within 300 ms');
			const args = readFileSync(path.join(dir, 'args'), 'utf8');
			expect(args).toMatch(/^--dry-run --config \S+/);
			expect(args).not.toMatch(/pover|userkey1234|apptoken5678/);
			expect(existsSync(/--config (\S+)/.exec(args)![1]!)).toBe(false);
			expect(existsSync(`/proc/${readFileSync(path.join(dir, 'pid'), 'utf8').trim()}`)).toBe(false);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});

	it('a URL revisit sends itself is not asked of apprise: it passes where there is none', async () => {
		await expect(notifier('json://127.0.0.1:9/hook', { env: { PATH: '/nonexistent' } }).check()).resolves.toBeUndefined();
	});
});
