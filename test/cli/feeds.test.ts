import { createHmac } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('what changed: diffs, Atom and webhooks', () => {
	let site: TestServer;
	const price = new Map<string, number>();
	beforeAll(async () => {
		site = await startServer((req, res) => {
			res
				.writeHead(200, { 'content-type': 'text/html' })
				.end(
					`<html><body>\n<p class="stamp">Generated at ${new Date().toISOString()}</p>\n<h1>Item ${req.url}</h1>\n<p class="price">` +
						`$${price.get(req.url!) ?? 10}</p>\n</body></html>\n`,
				);
		});
	});
	afterAll(() => site.close());

	it('fetch --out DIR --diff: a unified diff of what counts next to the body, named in index.ndjson; an Atom entry per change', async () => {
		const dir = await tempDir('revisit-diff-');
		try {
			const urls = [site.url('/a'), site.url('/b')].join('\n');
			const out = path.join(dir.dir, 'pages');
			const feed = path.join(dir.dir, 'changes.atom');
			const fetch = () => runCli(['fetch', '--store', path.join(dir.dir, 'store'), '--out', out, '--diff', '--select', '.price', '--atom', feed, '-q'], urls);
			expect((await fetch()).status).toBe(0);
			price.set('/b', 12);
			expect((await fetch()).stdout.trim()).toBe(site.url('/b'));
			const index = ndjson(await readFile(path.join(out, 'index.ndjson'), 'utf8'));
			const last = index.at(-1)!;
			expect(last).toMatchObject({ url: site.url('/b'), changed: true, summary: '+1 -1', diff: `${last.file}.diff` });
			const patch = await readFile(path.join(out, String(last.diff)), 'utf8');
			expect(patch).toContain('-<p class="price">$10</p>');
			expect(patch).toContain('+<p class="price">$12</p>');
			expect(patch).not.toContain('Generated at');
			price.set('/b', 13);
			await fetch();
			const parsed = new XMLParser({ ignoreAttributes: false }).parse(await readFile(feed, 'utf8')) as {
				feed: { entry: Array<{ id: string; title: string; content?: { '#text': string } }> };
			};
			const entries = parsed.feed.entry;
			// The first sightings are left out (no --feed-new); the two changes of /b: two entries, newest first, ids distinct.
			expect(entries).toHaveLength(2);
			expect(new Set(entries.map((entry) => entry.id)).size).toBe(2);
			expect(entries.map((entry) => entry.title)).toEqual([site.url('/b'), site.url('/b')]);
			expect(entries[0]!.content?.['#text']).toContain('+<p class="price">$13</p>');
		} finally {
			await dir.cleanup();
		}
	});

	it('--webhook: one signed POST per change, in order; a failing receiver exits 1, and the next run delivers what it did not take, first', async () => {
		const received: Array<{ verdict: { url: string; reason: string } }> = [];
		let failing = true;
		const receiver = await startServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				const body = Buffer.concat(chunks);
				const expected = `sha256=${createHmac('sha256', 's3cret').update(body).digest('hex')}`;
				if (req.headers['x-revisit-signature'] !== expected) return void res.writeHead(401).end();
				if (failing) return void res.writeHead(503).end();
				received.push(JSON.parse(body.toString()));
				res.writeHead(204).end();
			});
		});
		const dir = await tempDir('revisit-hook-');
		try {
			const sweep = () =>
				runCli(['sweep', '--store', path.join(dir.dir, 'store'), '-q', '--webhook', receiver.url('/hook'), '--feed-new', '--audit', '0'], site.url('/c'), {
					REVISIT_WEBHOOK_SECRET: 's3cret',
				});
			const refused = await sweep();
			expect(refused.status).toBe(1);
			expect(refused.stderr).toMatch(/webhook http:\/\/127\.0\.0\.1:\d+: answered 503 after 4 attempts/);
			expect(receiver.seen('/hook')).toHaveLength(4);
			failing = false;
			const delivered = await sweep();
			expect(delivered.status).toBe(0);
			// The page changed again (its time stamp); the first sighting waited in the store, and goes first.
			expect(delivered.stdout.trim()).toBe(site.url('/c'));
			expect(received).toMatchObject([{ verdict: { url: site.url('/c'), reason: 'new' } }, { verdict: { url: site.url('/c'), reason: 'new-body' } }]);
		} finally {
			await receiver.close();
			await dir.cleanup();
		}
	});

	it('the same through a pipeline file: a dir sink with diff, then an ndjson stdout sink whose verdicts carry the summary, and an atom sink', async () => {
		const dir = await tempDir('revisit-diff-run-');
		try {
			const file = path.join(dir.dir, 'changes.json');
			const config = {
				store: path.join(dir.dir, 'store'),
				source: { type: 'urls', urls: [site.url('/d')] },
				stages: [{ use: 'compare', rules: [{ select: ['.price'], learn: true }] }, { use: 'fetch' }],
				sinks: [
					{ type: 'dir', path: path.join(dir.dir, 'pages'), diff: true },
					{ type: 'stdout', format: 'ndjson' },
					{ type: 'atom', path: path.join(dir.dir, 'feed.atom'), max: 5, new: true },
				],
			};
			await writeFile(file, JSON.stringify(config));
			expect((await runCli(['check', file])).status).toBe(0);
			expect((await runCli(['run', file, '-q'])).status).toBe(0);
			price.set('/d', 20);
			const second = await runCli(['run', file, '-q']);
			expect(ndjson(second.stdout)).toMatchObject([{ url: site.url('/d'), changed: true, reason: 'new-body', summary: '+1 -1' }]);
			const parsed = new XMLParser().parse(await readFile(path.join(dir.dir, 'feed.atom'), 'utf8')) as { feed: { entry: unknown[] } };
			expect(parsed.feed.entry).toHaveLength(2);
		} finally {
			await dir.cleanup();
		}
	});

	it("an Atom entry carries the change's word diff of the text a reader sees, without --diff", async () => {
		const dir = await tempDir('revisit-atom-words-');
		try {
			const feed = path.join(dir.dir, 'changes.atom');
			const sweep = () => runCli(['sweep', '--store', path.join(dir.dir, 'store'), '-q', '--atom', feed], site.url('/e'));
			await sweep();
			price.set('/e', 31);
			expect((await sweep()).stdout.trim()).toBe(site.url('/e'));
			const parsed = new XMLParser({ ignoreAttributes: false }).parse(await readFile(feed, 'utf8')) as {
				feed: { entry: { content: { '#text': string; '@_type': string } } };
			};
			expect(parsed.feed.entry.content['@_type']).toBe('html');
			expect(parsed.feed.entry.content['#text']).toMatch(/<del>\$\d+<\/del><ins>\$31<\/ins>/);
		} finally {
			await dir.cleanup();
		}
	});

	it('an Atom entry for a change in the bytes only (an inline script) says the text is the same and where the bytes moved', async () => {
		let edition = 0;
		const page = () =>
			`<!doctype html><html><head><title>Deals</title></head><body><h1>Deals</h1><div id="deal"></div>` +
			`<script>document.getElementById('deal').textContent = 'Deal of the day: kettle & cups ${['one', 'seven'][edition]}';</script></body></html>`;
		const scripted = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page()));
		const dir = await tempDir('revisit-atom-bytes-');
		try {
			const feed = path.join(dir.dir, 'changes.atom');
			const sweep = () => runCli(['sweep', '--store', path.join(dir.dir, 'store'), '--ndjson', '--atom', feed], scripted.url('/deals'));
			expect((await sweep()).status).toBe(0);
			const before = Buffer.byteLength(page());
			edition = 1;
			const changed = await sweep();
			expect(changed.status, changed.stderr).toBe(0);
			const note = `the text is the same; the bytes changed: ${before} → ${Buffer.byteLength(page())} bytes, in the scripts`;
			expect(ndjson(changed.stdout)).toMatchObject([{ changed: true, reason: 'new-body', note }]);
			const parsed = new XMLParser({ ignoreAttributes: false }).parse(await readFile(feed, 'utf8')) as {
				feed: { entry: { summary: string; content: { '#text': string; '@_type': string } } };
			};
			expect(parsed.feed.entry.summary).toBe(`new-body, status 200; ${note}`);
			expect(parsed.feed.entry.content).toEqual({ '#text': note, '@_type': 'text' });
		} finally {
			await scripted.close();
			await dir.cleanup();
		}
	});
});
