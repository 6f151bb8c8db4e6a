import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createBatchWriter } from '../../src/cli/terminal.js';

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
