import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { from, lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { atomSink, type AtomSinkOptions } from '../../../src/io/sinks/atom.js';
import type { Task } from '../../../src/domain/task/types.js';
import { tempDir } from '../../helpers/cli.js';
import { describeNeeding, findProgram } from '../../helpers/debian.js';
import { failed, judged, NOW, sinkContext, unchanged } from './context.js';

let dir: string;
let cleanup: () => Promise<void>;
let feed: string;
beforeEach(async () => {
	({ dir, cleanup } = await tempDir('revisit-atom-'));
	feed = path.join(dir, 'changes.atom');
});
afterEach(() => cleanup());

const run = (tasks: Task[], options: Partial<AtomSinkOptions> = {}) =>
	lastValueFrom(from(tasks).pipe(atomSink({ path: feed, ...options })(sinkContext().context), toArray()));
const titles = (xml: string) => [...xml.matchAll(/<entry>.*?<title>(.*?)<\/title>/g)].map((match) => match[1]);
const ids = (xml: string) => [...xml.matchAll(/<entry><id>(.*?)<\/id>/g)].map((match) => match[1]);

describe('atomSink', () => {
	it('writes an Atom feed with one entry per change, newest first, and none for unchanged or failed URLs', async () => {
		const out = await run([
			judged('https://a.example/1'),
			unchanged('https://a.example/2'),
			failed('https://a.example/3'),
			judged('https://a.example/4', { reason: 'new' }),
		]);
		expect(out).toHaveLength(4);
		const xml = await readFile(feed, 'utf8');
		expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">')).toBe(true);
		expect(xml.trimEnd().endsWith('</feed>')).toBe(true);
		// A first sighting (`new`) is left out unless asked for: a new store's first run does not flood the feed.
		expect(titles(xml)).toEqual(['https://a.example/1']);
		expect(xml).toContain(`<updated>${new Date(NOW).toISOString()}</updated>`);
		expect(xml).toContain('<summary>new-body, status 200</summary>');
		await run([judged('https://a.example/5', { reason: 'new' })], { new: true });
		expect(titles(await readFile(feed, 'utf8'))).toEqual(['https://a.example/5', 'https://a.example/1']);
	});

	it("says in a product page's summary what its offer was and is", async () => {
		const product = { price: 21, currency: 'EUR', availability: 'InStock' as const };
		await run([judged('https://a.example/kettle', { reason: 'price', product, previous: { ...product, price: 24.5 } })]);
		expect(await readFile(feed, 'utf8')).toContain('<summary>price, price 24.5 EUR → 21 EUR, availability InStock, status 200</summary>');
	});

	it('puts the word diff in as HTML content where there is no unified diff', async () => {
		await run([
			judged(
				'https://a.example/p',
				{},
				{
					wordDiff: {
						why: 'diff',
						hunks: [
							[
								[0, 'Price '],
								[-1, '$24.50'],
								[1, '$21.00'],
								[0, ' <today>'],
							],
						],
					},
				},
			),
		]);
		const xml = await readFile(feed, 'utf8');
		expect(xml).toContain(
			'<content type="html">&lt;p&gt;Price &lt;del&gt;$24.50&lt;/del&gt;&lt;ins&gt;$21.00&lt;/ins&gt; &amp;lt;today&amp;gt;&lt;/p&gt;</content>',
		);
	});

	it('says where the text is the same and only the bytes moved, in the summary and as the content, escaped', async () => {
		const note = 'the text is the same; the bytes changed: 1,204 → 1,231 bytes, in the scripts & <style>';
		await run([judged('https://a.example/deals', { note })]);
		const xml = await readFile(feed, 'utf8');
		const escaped = 'the text is the same; the bytes changed: 1,204 → 1,231 bytes, in the scripts &amp; &lt;style&gt;';
		expect(xml).toContain(`<summary>new-body, status 200; ${escaped}</summary><content type="text">${escaped}</content></entry>`);
	});

	it('keeps the entries of earlier runs, gives a second change of one URL its own id, and caps the feed at max', async () => {
		await run([judged('https://a.example/1'), judged('https://a.example/2')], { max: 3 });
		await run([judged('https://a.example/1'), judged('https://a.example/3')], { max: 3 });
		const xml = await readFile(feed, 'utf8');
		expect(titles(xml)).toEqual(['https://a.example/3', 'https://a.example/1', 'https://a.example/2']);
		expect(new Set(ids(xml)).size).toBe(3);
	});

	it('escapes the URL and puts the diff in as text content', async () => {
		await run([judged('https://a.example/?a=1&b=<2>', { summary: '+1 -1' }, { diff: '-<old>\n+<new>\n' })], { title: 'Site & co' });
		const xml = await readFile(feed, 'utf8');
		expect(xml).toContain('<title>Site &amp; co</title>');
		expect(titles(xml)).toEqual(['https://a.example/?a=1&amp;b=&lt;2&gt;']);
		expect(xml).toContain('<summary>new-body, status 200, +1 -1</summary>');
		expect(xml).toContain('<content type="text">-&lt;old&gt;\n+&lt;new&gt;\n</content>');
	});

	it('writes no feed when nothing changed', async () => {
		await run([unchanged('https://a.example/2')]);
		await expect(readFile(feed, 'utf8')).rejects.toThrow(/ENOENT/);
	});
});

const SCHEMA = fileURLToPath(new URL('../../fixtures/atom.rnc', import.meta.url));

// RFC 4287 Appendix B, checked by Debian's jing; the schema's Schematron rule on authors
// is an annotation jing does not check, so it is checked here as the rule says.
describeNeeding({ name: 'jing', path: findProgram('jing'), install: 'apt-get install -y jing' }, 'atomSink against the RFC 4287 schema', () => {
	it('writes a feed the RELAX NG schema accepts, with an author as the RFC requires', async () => {
		await run(
			[
				judged('https://a.example/?a=1&b=<2>', { summary: '+1 -1' }, { diff: '-<old>\n+<new>\n' }),
				judged('https://a.example/2', { reason: 'new' }),
				judged(
					'https://a.example/3',
					{},
					{
						wordDiff: {
							why: 'diff',
							hunks: [
								[
									[-1, 'a'],
									[1, 'b'],
								],
							],
						},
					},
				),
			],
			{ title: 'Site & co', new: true },
		);
		const jing = (() => {
			try {
				return { status: 0, out: execFileSync(findProgram('jing')!, ['-c', SCHEMA, feed], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }) };
			} catch (error) {
				return { status: (error as { status: number }).status, out: String((error as { stdout: unknown }).stdout) };
			}
		})();
		expect(jing).toEqual({ status: 0, out: '' });
		const xml = await readFile(feed, 'utf8');
		// "An atom:feed must have an atom:author unless all of its atom:entry children have an atom:author."
		expect(xml).toMatch(/^<feed[^>]*>(?:(?!<entry>)[\s\S])*<author><name>revisit<\/name><\/author>/m);
	});
});
