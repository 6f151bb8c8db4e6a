import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { schemaText } from '../../../src/cli/commands/schema.js';
import { ndjson, runCli, tempDir } from '../../helpers/cli.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const EXAMPLES = fileURLToPath(new URL('../../../config/examples/', import.meta.url));

describe('revisit run', () => {
	let server: TestServer;
	let work: { dir: string; cleanup(): Promise<void> };
	let version: number;
	beforeEach(async () => {
		version = 0;
		server = await startServer((req, res) => {
			if (req.url === '/sitemap.xml') {
				const entries = ['/docs/a', '/docs/b', '/manual.pdf', '/tag/x'].map((page) => `<url><loc>${server.url(page)}</loc><lastmod>2024-05-01</lastmod></url>`);
				return void res.end(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</urlset>`);
			}
			if (req.url?.startsWith('/fail')) return void res.writeHead(500).end('down');
			const tag = `"v${version}"`;
			if (req.headers['if-none-match'] === tag) return void res.writeHead(304, { etag: tag }).end();
			res.writeHead(200, { etag: tag, 'content-type': 'text/plain' }).end(`${req.url} ${version}`);
		});
		work = await tempDir('revisit-run-');
	});
	afterEach(async () => {
		await server.close();
		await work.cleanup();
	});
	const at = (file: string) => path.join(work.dir, file);
	const pipeline = async (config: object) => {
		await writeFile(at('pipeline.json'), JSON.stringify({ store: at('store'), ...config }, null, 2));
		return at('pipeline.json');
	};
	const run = (args: string[], stdin = '') => runCli(['run', ...args], stdin);

	it('runs the sweep-file example: changed URLs to stdout, every verdict appended to a file', async () => {
		const pages = ['/a', '/b', '/c'].map((page) => server.url(page));
		await writeFile(at('urls.txt'), `${pages.join('\n')}\n`);
		const args = [
			path.join(EXAMPLES, 'sweep-file.json'),
			'--set',
			`store=${at('store')}`,
			'--set',
			`source.path=${at('urls.txt')}`,
			'--set',
			`sinks.1.path=${at('verdicts.ndjson')}`,
			'--set',
			'audit=0',
			'-q',
		];
		const first = await run(args);
		expect(first).toMatchObject({ status: 0, stderr: '' });
		expect(first.stdout.split('\n').filter(Boolean).sort()).toEqual(pages);
		const second = await run(args);
		expect(second).toMatchObject({ status: 0, stdout: '' });
		const verdicts = ndjson(await readFile(at('verdicts.ndjson'), 'utf8'));
		expect(verdicts.map((verdict) => verdict.reason)).toEqual(['new', 'new', 'new', '304', '304', '304']);
	});

	it('runs the sitemap-crawl example: sitemap, filter, due, fetch into a dir, changed URLs to stdout', async () => {
		const args = [
			path.join(EXAMPLES, 'sitemap-crawl.json'),
			'--set',
			`store=${at('store')}`,
			'--set',
			`source.url=${server.url('/sitemap.xml')}`,
			'--set',
			`sinks.0.path=${at('pages')}`,
			'-q',
		];
		const first = await run(args);
		expect(first.status).toBe(0);
		expect(first.stdout.split('\n').filter(Boolean).sort()).toEqual([server.url('/docs/a'), server.url('/docs/b')]);
		const index = ndjson(await readFile(at('pages/index.ndjson'), 'utf8'));
		expect(index.map((entry) => entry.url).sort()).toEqual([server.url('/docs/a'), server.url('/docs/b')]);
		expect(await readFile(at(`pages/${index[0]!.file as string}`), 'utf8')).toBe(`${new URL(index[0]!.url as string).pathname} 0`);
		// The example's ttl is 6h: nothing is due, nothing is requested.
		const requests = server.requests.length;
		expect(await run(args)).toMatchObject({ status: 0, stdout: '' });
		expect(server.requests.length).toBe(requests + 1);
	});

	it('reads a command source and pipes lines into a command sink', async () => {
		const urls = ['/a', '/b'].map((page) => server.url(page));
		const file = await pipeline({
			source: { type: 'command', command: `printf '%s\\n' ${urls.join(' ')}` },
			sinks: [{ type: 'command', command: `sed 's/^/changed /' > ${JSON.stringify(at('out.txt'))}` }],
		});
		expect(await run([file, '-q'])).toMatchObject({ status: 0, stdout: '', stderr: '' });
		expect((await readFile(at('out.txt'), 'utf8')).split('\n').filter(Boolean).sort()).toEqual(urls.map((url) => `changed ${url}`));
	});

	it('reports a failing source command as bad input (exit 1) after sweeping its lines, and a failing sink command with SINK_FAILED (exit 1)', async () => {
		const source = await pipeline({ source: { type: 'command', command: `echo ${server.url('/a')}; echo oops >&2; exit 3` }, sinks: [{ type: 'stdout' }] });
		const failedSource = await run([source, '-q']);
		expect(failedSource).toMatchObject({ status: 1, stdout: `${server.url('/a')}\n` });
		expect(failedSource.stderr).toContain(`revisit: command \`echo ${server.url('/a')}; echo oops >&2; exit 3\`: exited with status 3`);
		const sink = await pipeline({ source: { type: 'urls', urls: [server.url('/b')] }, sinks: [{ type: 'command', command: 'cat > /dev/null; exit 4' }] });
		const failedSink = await run([sink, '-q']);
		expect(failedSink.status).toBe(1);
		expect(failedSink.stderr).toContain('revisit: sink command `cat > /dev/null; exit 4` exited with status 4');
	});

	it('sends each sink the verdicts its `when` selects', async () => {
		const ok = ['/a', '/b'].map((page) => server.url(page));
		const file = await pipeline({
			source: { type: 'urls', urls: [...ok, server.url('/fail')] },
			stages: [{ use: 'probe', retries: 0, audit: 0 }],
			sinks: [
				{ type: 'stdout' },
				{ type: 'file', path: at('all.ndjson'), format: 'ndjson', when: 'all', mode: 'truncate' },
				{ type: 'file', path: at('errors.txt'), when: 'error', mode: 'truncate' },
				{ type: 'file', path: at('unchanged.txt'), when: 'unchanged', mode: 'truncate' },
				{ type: 'file', path: at('changed.ndjson'), format: 'ndjson', mode: 'truncate' },
			],
		});
		const lines = async (name: string) => (await readFile(at(name), 'utf8')).split('\n').filter(Boolean).sort();
		const first = await run([file, '-q']);
		expect(first.status).toBe(1);
		expect(first.stdout.split('\n').filter(Boolean).sort()).toEqual(ok);
		expect(await lines('errors.txt')).toEqual([server.url('/fail')]);
		expect(await lines('unchanged.txt')).toEqual([]);
		expect(
			ndjson(await readFile(at('changed.ndjson'), 'utf8'))
				.map((verdict) => verdict.url)
				.sort(),
		).toEqual(ok);
		expect(ndjson(await readFile(at('all.ndjson'), 'utf8'))).toHaveLength(3);

		// Nothing changed since: a 304 each, so the unchanged file gets them and stdout nothing; errors stay errors.
		const second = await run([file, '-q']);
		expect(second).toMatchObject({ status: 1, stdout: '' });
		expect(await lines('unchanged.txt')).toEqual(ok);
		expect(await lines('errors.txt')).toEqual([server.url('/fail')]);
		expect(await lines('changed.ndjson')).toEqual([]);
		expect(
			ndjson(await readFile(at('all.ndjson'), 'utf8'))
				.map((verdict) => verdict.reason)
				.sort(),
		).toEqual(['304', '304', 'error']);
	});

	it('applies --set overrides, checked like the file', async () => {
		const file = await pipeline({ source: { type: 'urls', urls: [server.url('/a')] }, sinks: [{ type: 'stdout' }] });
		const overridden = await run([file, '--set', 'sinks.0.format=ndjson', '--set', 'userAgent=probe/1', '--set', 'audit=0', '-q']);
		expect(ndjson(overridden.stdout)).toEqual([expect.objectContaining({ url: server.url('/a'), reason: 'new' })]);
		expect(server.seen('/a')[0]?.headers['user-agent']).toBe('probe/1');
		const bad = await run([file, '--set', 'concurrency=0', '--set', 'stages.due.ttl=soon']);
		expect(bad.status).toBe(2);
		expect(bad.stderr).toBe(
			[
				'--set stages.due.ttl=soon: /stages/0/ttl: must be a duration such as 30m, 6h or 2d (got "soon")',
				'--set concurrency=0: /stages/1/concurrency: must be integer >= 1 (got 0)',
				`revisit: ${file} is not a valid pipeline (2 problems); nothing was run`,
				'',
			].join('\n'),
		);
		expect(server.seen('/a')).toHaveLength(1);
	});

	it('refuses an invalid file with exit 2, every problem on its line, and runs nothing', async () => {
		await writeFile(
			at('bad.json'),
			`{\n  "store": ${JSON.stringify(at('store'))},\n  "source": { "type": "urls", "urls": [${JSON.stringify(server.url('/a'))}] },\n  "stages": ` +
				`[{ "use": "probe", "concurrency": "many", "perhost": 2 }],\n  "sinks": [{ "type": "stdout", "when": "changd" }]\n}\n`,
		);
		const result = await run([at('bad.json')]);
		expect(result).toMatchObject({ status: 2, stdout: '' });
		expect(result.stderr.split('\n')).toEqual([
			`${at('bad.json')}:4:47: /stages/0/concurrency: must be integer >= 1 (got "many")`,
			`${at('bad.json')}:4:55: /stages/0/perhost: unknown key; the probe stage takes concurrency, perHost, rate, acceptEncoding, userAgent, timeout, ` +
				`retries, maxRetryAfter, method, audit, verifyEvery, maxBody, denyPrivate, insecure, localWorkers, candidates, headers, robots, ` +
				`robotsAgent, maxCrawlDelay, keepText, keepTextTotal, keepVersions, diffOf, render, browser, renderTimeout, ` +
				`renderConcurrency or renderMemory (did you mean \`perHost\`?)`,
			`${at('bad.json')}:5:41: /sinks/0/when: must be one of changed, all, error or unchanged (got "changd"; did you mean \`changed\`?)`,
			`revisit: ${at('bad.json')} is not a valid pipeline (3 problems); nothing was run`,
			'',
		]);
		expect(server.requests).toHaveLength(0);
		await expect(access(at('store'))).rejects.toThrow();
		await writeFile(at('syntax.json'), '{\n  "source": { "type": "stdin" },\n  "sinks": [{ "type": "stdout" },]\n}\n');
		expect(await run([at('syntax.json')])).toMatchObject({
			status: 2,
			stderr:
				`${at('syntax.json')}:3:34: invalid JSON: trailing comma before ]\nrevisit: ${at('syntax.json')} is not a valid pipeline (1 problem); ` +
				`nothing was run\n`,
		});
		expect(await run([at('missing.json')])).toMatchObject({ status: 2, stderr: `${at('missing.json')}: cannot read the pipeline: no such file\n` });
	});

	it('reads stdin as a source, and exits 3 when the churn guard holds a host back', async () => {
		const urls = Array.from({ length: 5 }, (_, i) => server.url(`/p${i}`));
		const file = await pipeline({
			source: { type: 'stdin' },
			stages: [
				{ use: 'probe', audit: 0 },
				{ use: 'churn-guard', churnMin: 5 },
			],
			sinks: [{ type: 'stdout' }],
		});
		expect((await run([file, '-q'], urls.join('\n'))).stdout.split('\n').filter(Boolean)).toHaveLength(5);
		version = 1;
		const blocked = await run([file], urls.join('\n'));
		expect(blocked).toMatchObject({ status: 3, stdout: '' });
		expect(blocked.stderr).toContain(
			`changes held back (churn guard); check the site, then add it to the churn-guard stage's acceptChurn (--set 'acceptChurn=["${server.origin}"]')`,
		);
		const accepted = await run([file, '--set', `acceptChurn=["${server.origin}"]`, '-q'], urls.join('\n'));
		expect(accepted.stdout.split('\n').filter(Boolean)).toHaveLength(5);
	});
});

describe('revisit check and revisit schema', () => {
	it('checks every example without running it', async () => {
		for (const example of ['sweep-file.json', 'minimal.json', 'sitemap-crawl.json', 'command-adaptive.json', 'many-sources.json']) {
			const result = await runCli(['check', path.join(EXAMPLES, example)]);
			expect(result, example).toMatchObject({ status: 0, stderr: '' });
			expect(result.stdout).toContain(': valid pipeline');
		}
		const bad = await runCli(['check', path.join(EXAMPLES, 'sweep-file.json'), '--set', 'method=fast']);
		expect(bad).toMatchObject({ status: 2, stdout: '' });
		expect(bad.stderr).toContain('--set method=fast: /stages/0/method: must be one of get, head or auto (got "fast")');
	});

	it('prints the schema that ships in config/', async () => {
		const result = await runCli(['schema']);
		expect(result).toMatchObject({ status: 0, stdout: schemaText() });
		expect(JSON.parse(result.stdout)).toMatchObject({ $id: expect.stringContaining('pipeline.schema.json'), required: ['source', 'sinks'] });
	});
});
