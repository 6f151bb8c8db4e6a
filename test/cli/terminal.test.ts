import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { visibleIo } from '../../src/cli/io.js';
import { createBatchWriter, createTerminal } from '../../src/cli/terminal.js';

/** A stream that records each write it is given, and can fail them as a closed pipe does. */
function recorder(fail = false): { stream: Writable; writes: string[] } {
	const writes: string[] = [];
	const stream = new Writable({
		write(chunk: Buffer, _encoding, callback) {
			writes.push(chunk.toString());
			callback(fail ? Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }) : null);
		},
	});
	return { stream, writes };
}

describe('createBatchWriter', () => {
	it('writes the texts of one turn in one write, in call order, and resolves each after it', async () => {
		const { stream, writes } = recorder();
		const out = createBatchWriter(stream);
		const first = [out('a\n'), out('b\n'), out('c\n')];
		expect(writes).toEqual([]);
		await Promise.all(first);
		await out('d\n');
		expect(writes).toEqual(['a\nb\nc\n', 'd\n']);
	});

	it('fails every text of a write that fails, with OUTPUT_CLOSED for a closed pipe', async () => {
		const { stream } = recorder(true);
		const out = createBatchWriter(stream);
		const results = await Promise.allSettled([out('a\n'), out('b\n')]);
		expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
		expect((results[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'OUTPUT_CLOSED' });
	});
});

describe('createTerminal', () => {
	it('writes diagnostics and the summary made visible, also through a visible stream', () => {
		const { stream, writes } = recorder();
		const terminal = createTerminal(
			visibleIo({ stdin: Readable.from([]), stdout: stream, stderr: stream, env: {}, interrupted: new Promise(() => {}) }).stderr,
			{ quiet: false },
		);
		terminal.diagnose('https://shop.example/: the offer: price 15 EUR\x1b]52;c;ZXZpbA==\x07\nnext line');
		terminal.finish('1 URL, 1 changed \u009b2J');
		expect(writes).toEqual([
			'revisit: https://shop.example/: the offer: price 15 EUR^[]52;c;ZXZpbA==^G\nnext line\n',
			'revisit: 1 URL, 1 changed <U+009B>2J\n',
		]);
	});
});
