import { describe, expect, it } from 'vitest';
import { formatTable } from '../../../src/base/util/table.js';

describe('formatTable', () => {
	it('aligns columns', () => {
		expect(
			formatTable(
				['HOST', 'MODE'],
				[
					['https://a', 'conditional'],
					['https://bb.example', 'hash'],
				],
			),
		).toBe('HOST                MODE\nhttps://a           conditional\nhttps://bb.example  hash\n');
	});

	it('shows a cell holding control characters on one line, made visible, and aligns what is shown', () => {
		expect(
			formatTable(
				['ETAG', 'N'],
				[
					['"v1\u009b2J\x1b[K"\n', '1'],
					['"v2"', '2'],
				],
			),
		).toBe('ETAG' + ' '.repeat(18) + 'N\n"v1<U+009B>2J^[[K"^J  1\n"v2"' + ' '.repeat(18) + '2\n');
	});
});
