import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

const EXAMPLE = fileURLToPath(new URL('../../config/examples/watch.json', import.meta.url));

describe('revisit run, a watch-mode pipeline', () => {
	let server: TestServer;
	let work: { dir: string; cleanup(): Promise<void> };
	const served = new Map<string, number>();
	beforeEach(async () => {
		served.clear();
		server = await startServer((req, res) => {
			if (req.url === '/sitemap.xml')
				return void res.end(
					`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${server.url('/c')}</loc></url><url><loc>${server.url('/c.pdf')}</loc>` +
						`</url></urlset>`,
				);
			const count = (served.get(req.url!) ?? 0) + 1;
			served.set(req.url!, count);
			// /b changes once it has been seen: its second check finds a new body, whenever that check comes.
			const tag = `"v${req.url === '/b' && count > 1 ? 1 : 0}"`;
			if (req.headers['if-none-match'] === tag) return void res.writeHead(304, { etag: tag }).end();
			res.writeHead(200, { etag: tag, 'content-type': 'text/plain' }).end(`${req.url} ${tag}`);
		});
		work = await tempDir('revisit-watch-run-');
	});
	afterEach(async () => {
		await server.close();
		await work.cleanup();
	});
	const at = (file: string) => path.join(work.dir, file);

	it('runs the watch example as revisit watch: URLs and a sitemap watched until watch.until, ' +
		'changes to every sink (the report page after each epoch), exit 0', async () => {
		const args = [
			'run',
			EXAMPLE,
			'--set',
			`store=${at('store')}`,
			'--set',
			`source.0.urls=${JSON.stringify([server.url('/a'), server.url('/b')])}`,
			'--set',
			`source.1.url=${server.url('/sitemap.xml')}`,
			'--set',
			`sinks.0.path=${at('changes.xml')}`,
			'--set',
			`sinks.2=${JSON.stringify({ type: 'file', path: at('verdicts.ndjson'), format: 'ndjson', when: 'all' })}`,
			'--set',
			`sinks.3=${JSON.stringify({ type: 'report', path: at('report.html'), runs: 24 })}`,
			'--set',
			'audit=0',
			// Eight hours of the schedule in four seconds: each URL is checked again as its interval (1h, 2h, …) comes due.
			'--set',
			'watch.timeScale=7200',
			'--set',
			'watch.until=8h',
			'--set',
			'watch.hostRate=1000',
			'--set',
			'watch.listen=127.0.0.1:0',
		];
		const result = await runCli(args);
		expect(result.status, result.stderr).toBe(0);
		// Each URL once as new, /b again once it changed; the sitemap's .pdf filtered out.
		expect(result.stdout.split('\n').filter(Boolean).sort()).toEqual([server.url('/a'), server.url('/b'), server.url('/b'), server.url('/c')]);
		expect(result.stderr).toMatch(/revisit: listening on http:\/\/127\.0\.0\.1:\d+\//);
		const verdicts = ndjson(await readFile(at('verdicts.ndjson'), 'utf8'));
		const reasons = (page: string) => verdicts.filter((verdict) => verdict.url === server.url(page)).map((verdict) => verdict.reason);
		expect(reasons('/a').length).toBeGreaterThanOrEqual(2);
		expect(
			reasons('/a')
				.slice(1)
				.every((reason) => reason === '304'),
		).toBe(true);
		expect(reasons('/b').slice(0, 2)).toEqual(['new', 'new-body']);
		expect(served.get('/c.pdf')).toBeUndefined();
		// The feed carries the change, not the first sightings.
		const feed = await readFile(at('changes.xml'), 'utf8');
		expect(feed.match(/<entry>/g)).toHaveLength(1);
		expect(feed).toContain(server.url('/b'));
		// The report sink's page, written after each epoch: the last one has the change.
		expect(await readFile(at('report.html'), 'utf8')).toContain(server.url('/b'));
	}, 30_000);

	it('refuses a watch-mode file with a source it cannot read again: exit 2, the source named, nothing run', async () => {
		await writeFile(
			at('watch.json'),
			JSON.stringify(
				{
					mode: 'watch',
					source: [
						{ type: 'urls', urls: [server.url('/a')] },
						{ type: 'command', command: 'cat urls.txt' },
					],
					sinks: [{ type: 'stdout' }],
				},
				null,
				2,
			),
		);
		const result = await runCli(['run', at('watch.json'), '--set', `store=${at('store')}`]);
		expect(result).toMatchObject({ status: 2, stdout: '' });
		expect(result.stderr).toMatch(/watch\.json:\d+:\d+: \/source\/1: a watch reads its sources again and again, and a command source is read once/);
		expect(server.requests).toHaveLength(0);
	});
});
