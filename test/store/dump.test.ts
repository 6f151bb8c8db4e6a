import { describe, expect, it } from 'vitest';
import { parseDumpLine } from '../../src/store/dump.js';

describe('parseDumpLine', () => {
	it('imports a row exported live (during a watch) as the unfinished row it is once stored', () => {
		const line = JSON.stringify({
			kind: 'run',
			key: '0000000000001000',
			value: { v: 1, startedAt: 1000, endedAt: 2000, urls: 5, live: true, unfinished: true },
		});
		expect(parseDumpLine(line)).toEqual({
			operation: { type: 'putRun', key: '0000000000001000', value: { v: 1, startedAt: 1000, endedAt: 2000, urls: 5, unfinished: true } },
		});
	});

	it('imports a finished row as it is', () => {
		const value = { v: 1, startedAt: 1000, endedAt: 2000, urls: 5 };
		expect(parseDumpLine(JSON.stringify({ kind: 'run', key: 'k', value }))).toEqual({ operation: { type: 'putRun', key: 'k', value } });
	});
});
