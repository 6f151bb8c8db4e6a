import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { from, lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bodyFileName } from '../../../src/base/util/file-name.js';
import { dirSink } from '../../../src/io/sinks/dir.js';
import type { Task, Verdict } from '../../../src/domain/task/types.js';
import { tempDir } from '../../helpers/cli.js';
import { NOW, sinkContext } from './context.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
	({ dir, cleanup } = await tempDir('revisit-dir-sink-'));
});
afterEach(() => cleanup());

const fetched = (url: string, body: string, verdict: Partial<Verdict> = {}): Task => ({
	line: 1,
	input: url,
	url,
	probe: { status: 200, finalUrl: url, permanent: false, bytes: body.length, ms: 1, hash: 'h', contentType: 'text/plain', body: Buffer.from(body) },
	verdict: { url, changed: true, reason: 'new-body', ...verdict },
});

describe('dirSink', () => {
	it('writes the changed bodies only, by default, under a folder per host, with an index line each', async () => {
		const out = await lastValueFrom(
			from([fetched('https://a.example/new', 'fresh'), fetched('https://a.example/same', 'old', { changed: false, reason: 'same-hash' })]).pipe(
				dirSink({ path: dir })(sinkContext().context),
				toArray(),
			),
		);
		expect(out).toHaveLength(2);
		expect(await readFile(path.join(dir, bodyFileName('https://a.example/new')), 'utf8')).toBe('fresh');
		expect(existsSync(path.join(dir, bodyFileName('https://a.example/same')))).toBe(false);
		const index = (await readFile(path.join(dir, 'index.ndjson'), 'utf8'))
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line));
		expect(index).toEqual([
			{
				url: 'https://a.example/new',
				file: bodyFileName('https://a.example/new'),
				status: 200,
				contentType: 'text/plain',
				hash: 'h',
				changed: true,
				reason: 'new-body',
				fetchedAt: new Date(NOW).toISOString(),
			},
		]);
	});

	it('with when all, writes unchanged bodies too', async () => {
		await lastValueFrom(
			from([fetched('https://a.example/same', 'old', { changed: false, reason: 'same-hash' })]).pipe(
				dirSink({ path: dir, when: 'all' })(sinkContext().context),
				toArray(),
			),
		);
		expect(await readFile(path.join(dir, bodyFileName('https://a.example/same')), 'utf8')).toBe('old');
	});

	it('with diff, writes a .diff beside a body that changed', async () => {
		const url = 'https://a.example/notes.txt';
		await lastValueFrom(from([fetched(url, 'one\n')]).pipe(dirSink({ path: dir, diff: true })(sinkContext().context), toArray()));
		await lastValueFrom(from([fetched(url, 'two\n')]).pipe(dirSink({ path: dir, diff: true })(sinkContext().context), toArray()));
		const patch = await readFile(path.join(dir, `${bodyFileName(url)}.diff`), 'utf8');
		expect(patch).toContain('-one');
		expect(patch).toContain('+two');
	});
});
