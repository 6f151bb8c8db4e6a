import { from, lastValueFrom, tap, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { emit, type EmitOptions } from '../../src/stages/emit.js';
import type { Task, Verdict } from '../../src/domain/task/types.js';
import { OptionError } from '../../src/base/errors/index.js';

const judged = (line: number, verdict: Partial<Verdict> & { url: string }, more: Partial<Task> = {}): Task => ({
	line,
	input: verdict.url,
	url: verdict.url,
	verdict: { changed: false, reason: 'same-hash', ...verdict },
	...more,
});

const changed = judged(1, { url: 'https://a.example/1', changed: true, reason: 'new-body', status: 200 });
const unchanged = judged(2, { url: 'https://a.example/2', reason: '304', status: 304 });
const failed = judged(3, { url: 'https://a.example/3', reason: 'error', error: { code: 'ETIMEDOUT', message: 'timed out' } });
const rejected: Task = { line: 4, input: 'ftp://nope', skip: 'rejected', problem: 'not an http(s) URL' };

/** Runs `tasks` through emit and returns what was written, what was diagnosed and what came out. */
async function run(tasks: Task[], options?: EmitOptions, slowOut = false) {
	const out: string[] = [];
	const diagnostics: string[] = [];
	const passed = await lastValueFrom(
		from(tasks).pipe(
			emit(options, {
				out: (text) => (slowOut ? new Promise((resolve) => setTimeout(() => resolve(void out.push(text)), 5)) : Promise.resolve(void out.push(text))),
				diagnose: (text) => diagnostics.push(text),
			}),
			toArray(),
		),
	);
	return { out, diagnostics, passed };
}

describe('emit', () => {
	it('prints only the changed URLs, one per line, by default', async () => {
		const { out } = await run([changed, unchanged, failed]);
		expect(out).toEqual(['https://a.example/1\n']);
	});

	it('with ndjson and all, prints every verdict as one JSON object per line', async () => {
		const { out } = await run([changed, unchanged, failed], { format: 'ndjson', all: true });
		expect(out.map((line) => JSON.parse(line))).toEqual([changed.verdict, unchanged.verdict, failed.verdict]);
		expect(out.every((line) => line.endsWith('}\n'))).toBe(true);
	});

	it('selects the verdicts `when` names: errors only, or unchanged only', async () => {
		expect((await run([changed, unchanged, failed], { when: 'error' })).out).toEqual(['https://a.example/3\n']);
		expect((await run([changed, unchanged, failed], { when: 'unchanged' })).out).toEqual(['https://a.example/2\n']);
	});

	it('adds the sitemap lastmod a task came with to its verdict', async () => {
		const { out } = await run([{ ...changed, lastmod: '2024-05-01' }], { format: 'ndjson' });
		expect(JSON.parse(out[0]!)).toMatchObject({ url: 'https://a.example/1', lastmod: '2024-05-01' });
	});

	it('reports a rejected line and an error on diagnostics, never on the data output', async () => {
		const { out, diagnostics } = await run([rejected, failed], { format: 'ndjson', when: 'changed' });
		expect(out).toEqual([]);
		expect(diagnostics).toEqual(['line 4: not an http(s) URL: "ftp://nope"', 'https://a.example/3: ETIMEDOUT: timed out']);
	});

	it('hides a password in a URL before it is diagnosed', async () => {
		const secret = judged(5, { url: 'https://user:hunter2@a.example/x', reason: 'error', error: { code: 'E', message: 'm' } });
		const { diagnostics } = await run([secret]);
		expect(diagnostics).toEqual(['https://user:***@a.example/x: E: m']);
	});

	it("masks a signed URL's secret parameters on diagnostics, and prints the URL exact as data", async () => {
		const url = 'https://a.example/x?X-Amz-Signature=abc123&v=2';
		const { out, diagnostics } = await run([judged(6, { url, reason: 'error', error: { code: 'E', message: 'm' } })], { format: 'ndjson', when: 'all' });
		expect(diagnostics).toEqual(['https://a.example/x?X-Amz-Signature=***&v=2: E: m']);
		expect(JSON.parse(out[0]!)).toMatchObject({ url });
	});

	it('says once per host that a content rule could not read its bodies', async () => {
		const unreadable = (n: number, origin: string): Task =>
			judged(
				n,
				{ url: `${origin}/${n}` },
				{ origin, probe: { status: 200, finalUrl: `${origin}/${n}`, permanent: false, bytes: 1, ms: 1, content: { hash: 'h', rules: 'r', unreadable: true } } },
			);
		const { diagnostics } = await run([unreadable(1, 'https://a.example'), unreadable(2, 'https://a.example'), unreadable(3, 'https://b.example')]);
		expect(diagnostics).toEqual([
			'https://a.example/1: its content rule needs HTML or JSON, and this body is neither: hashed as bytes (said once for https://a.example)',
			'https://b.example/3: its content rule needs HTML or JSON, and this body is neither: hashed as bytes (said once for https://b.example)',
		]);
	});

	it('passes each task on only after its line is written, in source order', async () => {
		const order: string[] = [];
		const write = (text: string) =>
			new Promise<void>((resolve) =>
				setTimeout(() => {
					order.push(`wrote ${text.trim()}`);
					resolve();
				}, 5),
			);
		const tasks = [changed, unchanged, judged(6, { url: 'https://a.example/6', changed: true, reason: 'new' })];
		await lastValueFrom(
			from(tasks).pipe(
				emit({}, { out: write, diagnose: () => {} }),
				tap((task) => order.push(`passed ${task.url}`)),
				toArray(),
			),
		);
		expect(order).toEqual([
			'wrote https://a.example/1',
			'passed https://a.example/1',
			'passed https://a.example/2',
			'wrote https://a.example/6',
			'passed https://a.example/6',
		]);
	});

	it('passes every task on, printed or not', async () => {
		const { passed } = await run([changed, unchanged, failed, rejected], {}, true);
		expect(passed.map((task) => task.line)).toEqual([1, 2, 3, 4]);
	});

	it('refuses an unknown format or when', () => {
		expect(() => emit({ format: 'csv' as never }, { out: async () => {}, diagnose: () => {} })).toThrow(OptionError);
		expect(() => emit({ when: 'sometimes' as never }, { out: async () => {}, diagnose: () => {} })).toThrow(OptionError);
	});

	it('says once, at first sight, that a product page has no offer: not again, and not for a page that lost its offer', async () => {
		const url = 'https://shop.example/p/1';
		const none = { hash: 'c', rules: 'r1', noOffer: true };
		const sight = (record: Task['record']) =>
			judged(
				1,
				{ url, changed: true, reason: 'new', product: null, problem: 'no-offer' },
				{ probe: { status: 200, finalUrl: url, permanent: false, bytes: 1, ms: 1, content: none }, record },
			);
		const stored = { v: 1, status: 200, lastChecked: 1 };
		const { diagnostics } = await run([
			sight(null),
			sight({ ...stored, content: none }),
			sight({ ...stored, content: { hash: 'b', rules: 'r1', matched: true, product: { price: 5 } } }),
			sight({ ...stored, content: { hash: 'c', rules: 'r0', noOffer: true } }),
		]);
		expect(diagnostics).toEqual([
			`no offer found: ${url}; try revisit rules test ${url} --product`,
			`no offer found: ${url}; try revisit rules test ${url} --product`,
		]);
	});
});
