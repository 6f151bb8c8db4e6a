import { existsSync } from 'node:fs';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { from, lastValueFrom, map, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bodyFileName } from '../../src/base/util/file-name.js';
import { writeBodies } from '../../src/stages/write-bodies.js';
import type { Task, Verdict } from '../../src/domain/task/types.js';
import { tempDir } from '../helpers/cli.js';
import { fixedClock, NOW } from './deps.js';
import { writePdf } from '../fixtures/pdf-writer.js';
import { describeNeeding, findProgram } from '../helpers/debian.js';

const fetched = (url: string, body: string | Buffer, verdict: Partial<Verdict> = {}): Task => ({
	line: 1,
	input: url,
	url,
	probe: { status: 200, finalUrl: url, permanent: false, bytes: body.length, ms: 1, hash: 'h', contentType: 'text/plain', body: Buffer.from(body) },
	verdict: { url, changed: true, reason: 'new', ...verdict },
});

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
	({ dir, cleanup } = await tempDir('revisit-bodies-'));
});
afterEach(() => cleanup());

const index = async (): Promise<Array<Record<string, unknown>>> =>
	(await readFile(path.join(dir, 'index.ndjson'), 'utf8'))
		.split('\n')
		.filter(Boolean)
		.map((line) => JSON.parse(line));

describe('writeBodies', () => {
	it('writes each body to its stable file under a host folder and adds a line to index.ndjson', async () => {
		const url = 'https://a.example/docs/page.html';
		const [out] = await lastValueFrom(from([fetched(url, 'hello')]).pipe(writeBodies({}, { sink: { type: 'dir', dir }, clock: fixedClock }), toArray()));
		const file = bodyFileName(url);
		expect(file.startsWith('a.example/')).toBe(true);
		expect(await readFile(path.join(dir, file), 'utf8')).toBe('hello');
		expect(await index()).toEqual([
			{ url, file, status: 200, contentType: 'text/plain', hash: 'h', changed: true, reason: 'new', fetchedAt: new Date(NOW).toISOString() },
		]);
		// The body has been written: it is not carried on to the commit.
		expect(out!.probe!.body).toBeUndefined();
		expect(out!.probe!.hash).toBe('h');
	});

	it('overwrites the same file when the URL is fetched again, and appends to the index', async () => {
		const url = 'https://a.example/x';
		await lastValueFrom(from([fetched(url, 'first')]).pipe(writeBodies({}, { sink: { type: 'dir', dir }, clock: fixedClock }), toArray()));
		await lastValueFrom(
			from([fetched(url, 'second', { reason: 'new-body' })]).pipe(writeBodies({}, { sink: { type: 'dir', dir }, clock: fixedClock }), toArray()),
		);
		expect(await readFile(path.join(dir, bodyFileName(url)), 'utf8')).toBe('second');
		expect((await index()).map((entry) => entry.reason)).toEqual(['new', 'new-body']);
	});

	it('passes a task on only once its body is in its file', async () => {
		const url = 'https://a.example/y';
		const seen = await lastValueFrom(
			from([fetched(url, 'body')]).pipe(
				writeBodies({}, { sink: { type: 'dir', dir }, clock: fixedClock }),
				map(() => existsSync(path.join(dir, bodyFileName(url)))),
				toArray(),
			),
		);
		expect(seen).toEqual([true]);
	});

	it('writes nothing for an error, a task without a body, or a verdict `when` leaves out', async () => {
		const tasks = [
			fetched('https://a.example/err', 'x', { changed: false, reason: 'error' }),
			{ ...fetched('https://a.example/nobody', 'x'), probe: { status: 304, finalUrl: 'https://a.example/nobody', permanent: false, bytes: 0, ms: 1 } },
			fetched('https://a.example/same', 'x', { changed: false, reason: 'same-hash' }),
			fetched('https://a.example/new', 'fresh'),
		];
		const out = await lastValueFrom(from(tasks).pipe(writeBodies({ when: 'changed' }, { sink: { type: 'dir', dir }, clock: fixedClock }), toArray()));
		expect(out).toHaveLength(4);
		expect((await index()).map((entry) => entry.url)).toEqual(['https://a.example/new']);
		expect(existsSync(path.join(dir, bodyFileName('https://a.example/same')))).toBe(false);
	});

	it('with diff, writes the change against the body the folder held, and puts its summary on the verdict', async () => {
		const url = 'https://a.example/notes.txt';
		const file = path.join(dir, bodyFileName(url));
		await mkdir(path.dirname(file), { recursive: true });
		await writeFile(file, 'one\ntwo\n');
		const [out] = await lastValueFrom(
			from([fetched(url, 'one\nthree\n', { reason: 'new-body' })]).pipe(
				writeBodies({ diff: { rules: [] } }, { sink: { type: 'dir', dir }, clock: fixedClock }),
				toArray(),
			),
		);
		const patch = await readFile(`${file}.diff`, 'utf8');
		expect(patch).toContain('-two');
		expect(patch).toContain('+three');
		expect(out!.verdict!.summary).toBe('+1 -1');
		expect(out!.diff).toBe(patch);
		expect((await index())[0]).toMatchObject({ diff: `${bodyFileName(url)}.diff`, summary: '+1 -1' });
	});

	it('with diff, diffs a JSON document pretty-printed with sorted keys: a key order change is no line of the diff', async () => {
		const url = 'https://a.example/item.json';
		const file = path.join(dir, bodyFileName(url));
		await mkdir(path.dirname(file), { recursive: true });
		await writeFile(file, '{"price":5,"name":"Kettle"}');
		const task = fetched(url, '{"name":"Kettle","price":6}', { reason: 'new-body' });
		task.probe!.contentType = 'application/json';
		await lastValueFrom(from([task]).pipe(writeBodies({ diff: { rules: [] } }, { sink: { type: 'dir', dir }, clock: fixedClock }), toArray()));
		const patch = await readFile(`${file}.diff`, 'utf8');
		expect(patch).toContain(' {\n   "name": "Kettle",\n-  "price": 5\n+  "price": 6\n }');
	});

	describeNeeding({ name: 'poppler-utils', path: findProgram('pdftotext'), install: 'apt-get install -y poppler-utils' }, 'with diff, a PDF', () => {
		it('is diffed by its text', async () => {
			const url = 'https://a.example/notice.pdf';
			const file = path.join(dir, bodyFileName(url));
			await mkdir(path.dirname(file), { recursive: true });
			await writeFile(file, writePdf([['Opening hours', 'Monday to Friday, 9 to 5']], { compress: true }));
			const task = fetched(url, writePdf([['Opening hours', 'Monday to Saturday, 9 to 5']], { compress: true, id: 'new' }), { reason: 'new-body' });
			task.probe!.contentType = 'application/pdf';
			const [out] = await lastValueFrom(from([task]).pipe(writeBodies({ diff: { rules: [] } }, { sink: { type: 'dir', dir }, clock: fixedClock }), toArray()));
			const patch = await readFile(`${file}.diff`, 'utf8');
			expect(patch).toContain(' Opening hours\n-Monday to Friday, 9 to 5\n+Monday to Saturday, 9 to 5');
			expect(out!.verdict!.summary).toBe('+1 -1');
		});
	});

	it('as ndjson, writes one object per URL with the body as text, or base64 when it is not UTF-8', async () => {
		const lines: string[] = [];
		const binary = Buffer.from([0xff, 0xfe, 0x00, 0x01]);
		await lastValueFrom(
			from([fetched('https://a.example/t', 'héllo'), fetched('https://a.example/b', binary)]).pipe(
				writeBodies({}, { sink: { type: 'ndjson', out: async (text) => void lines.push(text) }, clock: fixedClock }),
				toArray(),
			),
		);
		const objects = lines.map((line) => JSON.parse(line));
		expect(objects[0]).toMatchObject({ url: 'https://a.example/t', encoding: 'utf8', body: 'héllo', fetchedAt: new Date(NOW).toISOString() });
		expect(objects[1]).toMatchObject({ url: 'https://a.example/b', encoding: 'base64', body: binary.toString('base64') });
		expect(existsSync(path.join(dir, 'index.ndjson'))).toBe(false);
	});
});
