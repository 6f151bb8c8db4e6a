import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { argsInput, STDIN_ARG } from '../../../src/io/sources/args.js';
import { afterFirst, spool } from '../../../src/io/sources/spool.js';

async function text(input: AsyncIterable<Buffer | string>): Promise<string> {
	let all = '';
	for await (const chunk of input) all += chunk.toString();
	return all;
}

describe('argsInput', () => {
	it('reads stdin alone when there are no arguments', async () => {
		expect(await text(argsInput([], Readable.from(['a\nb\n'])))).toBe('a\nb\n');
	});

	it('gives each argument a line, splices stdin where - stands, and never lets a newline split an argument', async () => {
		expect(await text(argsInput(['x', '-', 'y\nz', STDIN_ARG], Readable.from(['s1\ns2'])))).toBe('x\ns1\ns2\ny z\n\n');
	});
});

describe('spool and afterFirst', () => {
	it('replays all of an input after it ended, and waits only for the first chunk', async () => {
		async function* input() {
			yield 'one\n';
			yield 'two\n';
		}
		expect(await text(await spool(input()))).toBe('one\ntwo\n');
		expect(await text(await afterFirst(input()))).toBe('one\ntwo\n');
	});
});
