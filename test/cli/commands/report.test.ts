import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LevelStore } from '../../../src/store/level/store.js';
import { unpackText } from '../../../src/store/model/text-blob.js';
import { runCli, tempDir } from '../../helpers/cli.js';
import { buildReportSite, reportData, type ReportSite } from '../../helpers/report-site.js';
import { startServer } from '../../helpers/server.js';

describe('revisit report', () => {
	let site: ReportSite;
	beforeAll(async () => {
		site = await buildReportSite();
	}, 60_000);
	afterAll(async () => {
		await site?.close();
	});

	it('writes one self-contained page of the last run: summary, changes with why and word diff, errors by code, hosts', async () => {
		const html = await readFile(site.lastRun, 'utf8');
		// Self-contained: no external script, style, image or link, and a policy that allows no request.
		expect(html).not.toMatch(/<(?:script|img|link|iframe)[^>]+(?:src|href)="(?!data:)/i);
		expect(html).toContain(`default-src 'none'`);
		const data = reportData(html);
		expect(data.summary).toMatchObject({ runs: 1, urls: 6, changed: 3, notModified: 2, errors: 1 });
		expect(data.changes.map((change) => change.url).sort()).toEqual([site.a.url('/article'), site.a.url('/spaces'), site.b.url('/price')].sort());
		const article = data.changes.find((change) => change.url === site.a.url('/article'))!;
		expect(article).toMatchObject({ reason: 'new-body', text: 'diff', origin: site.a.origin });
		expect(article.before!.etag).not.toEqual(article.after!.etag);
		expect(article.before!.hash).not.toEqual(article.after!.hash);
		const parts = article.diff!.flat();
		expect(parts).toContainEqual([-1, 'agreed']);
		expect(parts).toContainEqual([1, 'rejected']);
		expect(parts.filter(([op]) => op !== 0)).toHaveLength(2);
		const spaces = data.changes.find((change) => change.url === site.a.url('/spaces'))!;
		expect(
			spaces
				.diff!.flat()
				.filter(([op]) => op !== 0)
				.every(([, text]) => text.trim() === ''),
		).toBe(true);
		expect(data.errorCounts).toEqual({ HTTP_500: 1 });
		expect(data.errors[0]).toMatchObject({ url: site.b.url('/broken'), error: { code: 'HTTP_500' } });
		expect(data.hosts.map((host) => host.host).sort()).toEqual([site.a.origin, site.b.origin].sort());
		expect(data.hosts.find((host) => host.host === site.b.origin)).toMatchObject({ checked: 3, changed: 1, mode: 'conditional' });
	});

	it('covers the last N runs: a first change has a diff, as the text is kept from first sight', async () => {
		const data = reportData(await readFile(site.allRuns, 'utf8'));
		expect(data.summary).toMatchObject({ runs: 3, urls: 18 });
		const article = data.changes.filter((change) => change.url === site.a.url('/article'));
		// Newest first: run 3 (a diff), run 2 (the first change, against the text of first sight), run 1 (first sight).
		expect(article.map((change) => change.text)).toEqual(['diff', 'diff', 'first-sight']);
		expect(article[1]!.diff!.flat()).toContainEqual([1, 'Wednesday']);
	});

	it('keeps the visible text of every page from first sight, and none with --keep-text off', async () => {
		const store = await LevelStore.open(site.storeDir);
		try {
			const [article, unchanged, other] = await store.getMany([site.a.url('/article'), site.a.url('/static'), site.b.url('/static')]);
			const texts = await store.getTexts([article!.text!.hash!, unchanged!.text!.hash!]);
			expect(texts.map((blob) => unpackText(blob!))).toEqual([
				'Council news\nThe council met on Wednesday and rejected the budget for the harbour.',
				'Nothing moves here.',
			]);
			// Two pages with the same text share one blob.
			expect(other!.text!.hash).toBe(unchanged!.text!.hash);
		} finally {
			await store.close();
		}
		const dir = await tempDir();
		try {
			const storeDir = path.join(dir.dir, 'store');
			const run = await runCli(['sweep', '--store', storeDir, '--robots', 'ignore', '--keep-text', 'off', '-q'], `${site.a.url('/article')}\n`);
			expect(run.status).toBe(0);
			const off = await LevelStore.open(storeDir);
			try {
				const [record] = await off.getMany([site.a.url('/article')]);
				expect(record!.hash).toBeDefined();
				expect(record!.text).toBeUndefined();
			} finally {
				await off.close();
			}
		} finally {
			await dir.cleanup();
		}
	});

	it('diffs what a content rule counts, not the page around it, and shows the rule as written', async () => {
		let version = 1;
		const server = await startServer((_req, res) => {
			res.setHeader('content-type', 'text/html');
			res.end(`<html><body><nav>visit ${version}</nav><p class="price">Price: ${10 + version} EUR</p></body></html>`);
		});
		const dir = await tempDir();
		try {
			const storeDir = path.join(dir.dir, 'store');
			for (version = 1; version <= 3; version++) {
				const run = await runCli(['sweep', '--store', storeDir, '--robots', 'ignore', '--select', '.price', '--text', '-q'], `${server.url('/p')}\n`);
				expect(run.status).toBe(0);
			}
			const page = path.join(dir.dir, 'r.html');
			expect((await runCli(['report', '--store', storeDir, '--html', page])).status).toBe(0);
			const data = reportData(await readFile(page, 'utf8'));
			const [change] = data.changes;
			expect(change!.rule).toMatch(/^[0-9a-f]{12}$/);
			// The rule as written, not only its id.
			expect(data.rules[change!.rule!]).toEqual({ select: ['.price'], text: true });
			expect(change!.before!.content).not.toEqual(change!.after!.content);
			expect(change!.diff!.flat()).toEqual([
				[0, 'Price: '],
				[-1, '12'],
				[1, '13'],
				[0, ' EUR'],
			]);
		} finally {
			await server.close();
			await dir.cleanup();
		}
	});

	it('says where the kept text was cut when a change lies past it, and diffs the markup with --diff-of source', async () => {
		let version = 1;
		const long = Array.from({ length: 40 }, (_, i) => `<p>Paragraph ${i} says the same thing every time, at some length.</p>`).join('');
		const server = await startServer((_req, res) => {
			res.setHeader('content-type', 'text/html');
			res.end(`<html><body><h1 class="v${version}">Title</h1>${long}${version > 1 ? '<p>Appended.</p>' : ''}</body></html>`);
		});
		const dir = await tempDir();
		try {
			const sweepAll = async (store: string, extra: string[]) => {
				for (version = 1; version <= 2; version++)
					expect((await runCli(['sweep', '--store', store, '--robots', 'ignore', '-q', ...extra], `${server.url('/p')}\n`)).status).toBe(0);
				const page = path.join(dir.dir, 'r.html');
				expect((await runCli(['report', '--store', store, '--html', page])).status).toBe(0);
				return reportData(await readFile(page, 'utf8')).changes[0]!;
			};
			const cut = await sweepAll(path.join(dir.dir, 'cut'), ['--keep-text', '1KiB']);
			expect(cut).toMatchObject({ text: 'beyond-cut', kept: 1024 });
			expect(cut.diff).toBeUndefined();
			const source = await sweepAll(path.join(dir.dir, 'source'), ['--diff-of', 'source']);
			expect(source.text).toBe('diff');
			expect(
				source
					.diff!.flat()
					.filter(([op]) => op !== 0)
					.map(([, text]) => text)
					.join(''),
			).toMatch(/v1.*v2|<p>Appended\.<\/p>/);
		} finally {
			await server.close();
			await dir.cleanup();
		}
	});

	it('says when there is nothing to report, and needs --html', async () => {
		const dir = await tempDir();
		try {
			const empty = path.join(dir.dir, 'store');
			await (await LevelStore.open(empty)).close();
			const none = await runCli(['report', '--store', empty, '--html', path.join(dir.dir, 'r.html')]);
			expect(none.status).toBe(1);
			expect(none.stderr).toMatch(/no run in .* to report on/);
			const missing = await runCli(['report', '--store', site.storeDir]);
			expect(missing.status).toBe(2);
			expect(missing.stderr).toMatch(/--html FILE/);
			const future = await runCli(['report', '--store', site.storeDir, '--html', path.join(dir.dir, 'r.html'), '--since', '2999-01-01']);
			expect(future.status).toBe(1);
			const week = await runCli(['report', '--store', site.storeDir, '--html', path.join(dir.dir, 'w.html'), '--since', '7d']);
			expect(week.status).toBe(0);
			expect(reportData(await readFile(path.join(dir.dir, 'w.html'), 'utf8')).summary.runs).toBe(3);
		} finally {
			await dir.cleanup();
		}
	});

	it("is written by a pipeline file's report sink when the run ends", async () => {
		const dir = await tempDir();
		try {
			const page = path.join(dir.dir, 'page.html');
			await writeFile(path.join(dir.dir, 'urls.txt'), `${site.b.url('/price')}\n`);
			const file = path.join(dir.dir, 'p.json');
			await writeFile(
				file,
				JSON.stringify({
					store: { path: path.join(dir.dir, 'store') },
					source: { type: 'file', path: path.join(dir.dir, 'urls.txt') },
					stages: [{ use: 'probe', robots: 'ignore' }],
					sinks: [
						{ type: 'stdout', format: 'lines' },
						{ type: 'report', path: page },
					],
				}),
			);
			const run = await runCli(['run', file]);
			expect(run.status).toBe(0);
			const data = reportData(await readFile(page, 'utf8'));
			expect(data.summary).toMatchObject({ runs: 1, urls: 1, changed: 1 });
			expect(data.changes[0]).toMatchObject({ url: site.b.url('/price'), reason: 'new', text: 'first-sight' });
		} finally {
			await dir.cleanup();
		}
	});
});
