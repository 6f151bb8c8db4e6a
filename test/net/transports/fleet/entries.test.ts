import { describe, expect, it } from 'vitest';
import { byRun, parseEntries } from '../../../../src/net/transports/fleet/entries.js';

describe('parseEntries', () => {
	it('reads entries, skips deleted ones (nil), and groups them by run in order', () => {
		const entries = parseEntries([
			['1-0', ['run', 'a', 'id', '0', 'token', 't0', 'spec', '{"url":"u"}']],
			null,
			['2-0', ['run', 'b', 'id', '1', 'token', 't1', 'spec', '{}']],
			['3-0', ['run', 'a', 'id', '2', 'token', 't2', 'spec', '{}']],
		]);
		expect(entries.map((entry) => entry.entry)).toEqual(['1-0', '2-0', '3-0']);
		expect(entries[0]).toEqual({ entry: '1-0', run: 'a', id: '0', token: 't0', spec: '{"url":"u"}' });
		expect([...byRun(entries)].map(([run, group]) => [run, group.map((entry) => entry.id)])).toEqual([
			['a', ['0', '2']],
			['b', ['1']],
		]);
		expect(parseEntries(null)).toEqual([]);
	});
});
