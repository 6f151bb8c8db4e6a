import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { startMixedSite, type MixedSite } from '../helpers/mixed-site.js';
import { slowOrigin } from '../helpers/server.js';

// The rotating host's tags count its responses, so they differ between two runs by design.
const rotating = (etag: unknown) => (typeof etag === 'string' && /^"r\d+"$/.test(etag) ? '"r…"' : etag);
// Audits and verification are random or time-spread: off, so that two stores see the same answers.
const SAME = ['--ndjson', '--all', '-q', '--audit', '0', '--verify-every', 'off', '--concurrency', '8', '--per-host', '3'];

const judged = (stdout: string) =>
	ndjson(stdout)
		.map(({ url, changed, reason, status, etag, lastModified, hash }) => ({ url, changed, reason, status, etag: rotating(etag), lastModified, hash }))
		.sort((a, b) => String(a.url).localeCompare(String(b.url)));

describe('sweep --local-workers', () => {
	let site: MixedSite;
	beforeAll(async () => {
		site = await startMixedSite(30);
	});
	afterAll(() => site.close());

	it('judges a mixed site (edits, deletions, a lying host) exactly as an in-process sweep, run after run', async () => {
		const plain = await tempDir();
		const threads = await tempDir();
		try {
			for (let round = 0; round < 4; round++) {
				const expected = round === 0 ? site.input().trim().split('\n').sort() : site.step(round);
				const inProcess = await runCli(['sweep', '--store', plain.dir, ...SAME], site.input());
				const local = await runCli(['sweep', '--store', threads.dir, '--local-workers', '2', ...SAME], site.input());
				expect(local.status).toBe(inProcess.status);
				expect(judged(local.stdout)).toEqual(judged(inProcess.stdout));
				expect(
					judged(local.stdout)
						.filter((verdict) => verdict.changed)
						.map((verdict) => verdict.url),
				).toEqual(expected);
			}
		} finally {
			await plain.cleanup();
			await threads.cleanup();
		}
	});

	it('keeps --per-host for the whole run: an origin never sees more at once, whichever thread sends', async () => {
		const { server, seen } = await slowOrigin(15);
		const store = await tempDir();
		try {
			const urls = Array.from({ length: 40 }, (_, i) => server.url(`/p${i}`)).join('\n');
			const run = await runCli(['sweep', '--store', store.dir, '--local-workers', '2', '--per-host', '2', '--concurrency', '16'], urls);
			expect(run.status).toBe(0);
			expect(run.stderr).toMatch(/40 URLs, 40 changed, .*, sent by 2 worker threads\n$/);
			expect(run.stdout.trim().split('\n')).toHaveLength(40);
			expect(seen.most).toBe(2);
		} finally {
			await server.close();
			await store.cleanup();
		}
	});

	it('refuses a count that is not a whole number, naming the flag', async () => {
		const run = await runCli(['sweep', '--store', '/nonexistent', '--local-workers', 'two'], 'http://127.0.0.1:1/\n');
		expect(run.status).toBe(2);
		expect(run.stderr).toContain('--local-workers must be an integer >= 0');
	});
});
