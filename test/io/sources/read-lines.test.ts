import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createValve } from '../../../src/base/flow/valve.js';
import { readLines } from '../../../src/io/sources/read-lines.js';

const read = (chunks: Array<string | Buffer>, maxLineBytes?: number) =>
	lastValueFrom(
		readLines(
			(async function* () {
				yield* chunks;
			})(),
			createValve(1000),
			maxLineBytes === undefined ? {} : { maxLineBytes },
		).pipe(toArray()),
	);

describe('readLines', () => {
	it('trims, skips blanks and comments, and numbers lines as the input does', async () => {
		const lines = await read(['  https://a/ \n\n# note\r\nhttps://b/\r\n', 'https://c/']);
		expect(lines).toEqual([
			{ line: 1, text: 'https://a/' },
			{ line: 4, text: 'https://b/' },
			{ line: 5, text: 'https://c/' },
		]);
	});

	it('joins a line split across chunks', async () => {
		expect(await read(['https://exa', 'mple.org/\n'])).toEqual([{ line: 1, text: 'https://example.org/' }]);
	});

	it('reports invalid UTF-8, NUL bytes and overlong lines with their line numbers', async () => {
		const lines = await read([Buffer.from([0xff, 0xfe, 0x0a]), 'a\0b\n', `${'x'.repeat(50)}\n`, 'ok\n'], 20);
		expect(lines.map(({ line, problem }) => [line, problem])).toEqual([
			[1, 'line is not valid UTF-8'],
			[2, 'line contains a NUL byte'],
			[3, 'line is longer than 20 bytes'],
			[4, undefined],
		]);
	});

	it('drops an endless line as it streams instead of buffering it', async () => {
		const chunks = Array.from({ length: 100 }, () => 'y'.repeat(1000));
		const lines = await read([...chunks, '\nnext\n'], 4096);
		expect(lines).toEqual([
			{ line: 1, text: '', problem: 'line is longer than 4096 bytes' },
			{ line: 2, text: 'next' },
		]);
	});

	it('pulls no further than the valve allows', async () => {
		let pulled = 0;
		const source = (async function* () {
			for (let i = 0; i < 1000; i++) {
				pulled++;
				yield `https://example.org/${i}\n`;
			}
		})();
		const valve = createValve(10);
		// Nothing releases credit, so the reader must stall after ten lines.
		const seen: string[] = [];
		const subscription = readLines(source, valve).subscribe((line) => seen.push(line.text));
		await new Promise((resolve) => setTimeout(resolve, 50));
		subscription.unsubscribe();
		expect(seen).toHaveLength(10);
		expect(pulled).toBeLessThanOrEqual(11);
	});
});
