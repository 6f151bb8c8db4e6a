import { describe, expect, it } from 'vitest';
import { hostRunRows, runRow } from '../../../src/outputs/history/rows.js';
import { formatHostTable, formatRunTable, shortDuration, shortTime } from '../../../src/outputs/history/table.js';
import { run, T0 } from './fixtures.js';

describe('history tables', () => {
	it('formats times in UTC and durations compactly', () => {
		expect(shortTime('2024-12-02T14:00:05.123Z')).toBe('2024-12-02 14:00:05Z');
		expect([850, 12_340, 245_000, 7_800_000].map(shortDuration)).toEqual(['850ms', '12.3s', '4m05s', '2h10m']);
	});

	it('aligns one row per run under a header', () => {
		const rows = [
			run(T0, { urls: 3, changed: 3, bytes: 1500, fullBytes: 1500 }),
			run(T0 + 3_600_000, {
				urls: 3,
				notModified: 3,
				bytes: 0,
				fullBytes: 1500,
				blockedHosts: ['https://x', 'https://y'],
				hosts: { 'https://x': { urls: 3, changed: 0, conditional: 3, notModified: 3 } },
			}),
		].map(runRow);
		expect(formatRunTable(rows)).toBe(
			[
				'START                 TOOK  URLS  CHANGED  304S  SAME-HASH  SAME-CONTENT  ERRORS  DEFERRED  NOT-DUE  RECEIVED  FULL    SAVED   304%    BLOCKED',
				'2024-12-02 14:00:00Z  1.5s  3     3        0     0          0             0       0         0        1.5 KB    1.5 KB  0 B     -       -',
				'2024-12-02 15:00:00Z  1.5s  3     0        3     0          0             0   ' +
					'    0         0        0 B       1.5 KB  1.5 KB  100.0%  https://x,https://y',
				'',
			].join('\n'),
		);
	});

	it('marks the hour a running watch is in as live, and one whose watch was killed as unfinished, in TOOK and the JSON rows', () => {
		const rows = [run(T0, { unfinished: true }), run(T0 + 3_600_000, { unfinished: true, live: true })].map(runRow);
		expect(rows.map((row) => [row.live, row.unfinished])).toEqual([
			[undefined, true],
			[true, undefined],
		]);
		const lines = formatRunTable(rows).split('\n');
		expect(lines[1]).toMatch(/^2024-12-02 14:00:00Z {2}1\.5s unfinished {2}/);
		expect(lines[2]).toMatch(/^2024-12-02 15:00:00Z {2}1\.5s live {8}/);
		const hosts = hostRunRows([run(T0, { live: true, hosts: { 'https://x': { urls: 3, changed: 1, conditional: 3, notModified: 2 } } })], 'x');
		expect(formatHostTable(hosts).split('\n')[1]).toMatch(/^2024-12-02 14:00:00Z {2}1\.5s live {2}https:\/\/x/);
	});

	it("aligns a host's rows", () => {
		const rows = hostRunRows([run(T0, { hosts: { 'https://x': { urls: 3, changed: 1, conditional: 3, notModified: 2 } } })], 'x');
		expect(formatHostTable(rows)).toBe(
			[
				'START                 TOOK  HOST       URLS  CHANGED  COND  304S  304%',
				'2024-12-02 14:00:00Z  1.5s  https://x  3     1        3     2     66.7%',
				'',
			].join('\n'),
		);
	});
});
