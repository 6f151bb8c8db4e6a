import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/base/errors/index.js';
import { parseVersionSpec, resolveVersion } from '../../../src/outputs/history/version-spec.js';

const DAY = 86_400_000;
const at = (iso: string) => Date.parse(iso);
// Newest first, as pageVersions gives them: versions 3 to 6 kept (1 and 2 evicted).
const versions = [
	{ n: 6, firstSeen: at('2026-12-04T09:00:00Z') },
	{ n: 5, firstSeen: at('2026-12-03T12:00:00Z') },
	{ n: 4, firstSeen: at('2026-12-02T08:30:00Z') },
	{ n: 3, firstSeen: at('2026-12-01T10:00:00Z') },
];
const pick = (text: string) => {
	const found = resolveVersion(parseVersionSpec(text, 'A'), versions, 'A');
	return 'version' in found ? found.version.n : found.problem;
};

describe('version specifiers', () => {
	it('read a number, first, latest, ~N and a bare ~ as git does', () => {
		expect([pick('4'), pick('first'), pick('latest'), pick('~0'), pick('~2'), pick('~'), pick('latest~2'), pick('latest~')]).toEqual([4, 3, 6, 6, 4, 5, 4, 5]);
	});

	it('read a date or time as the version current at the end of the day, minute or second it names', () => {
		expect(pick('2026-12-02')).toBe(4);
		expect(pick('2026-12-03')).toBe(5);
		expect(pick('2026-12-03T11:59')).toBe(4);
		expect(pick('2026-12-03T12:00')).toBe(5);
		expect(pick('2026-12-03 12:00:00')).toBe(5);
		expect(pick('2026-12-03 11:59:59Z')).toBe(4);
		// As log --json writes them: to the millisecond.
		expect(pick('2026-12-03T12:00:00.000Z')).toBe(5);
		expect(pick('2026-12-03T11:59:59.999Z')).toBe(4);
		expect(parseVersionSpec('2026-12-03T11:59:59.5Z', 'A')).toMatchObject({ at: at('2026-12-03T11:59:59.500Z') });
		expect(parseVersionSpec('2026-12-03 11:59:59', 'A')).toMatchObject({ at: at('2026-12-03T11:59:59.999Z') });
		// 13:30 in Paris is 12:30 UTC.
		expect(pick('2026-12-03T13:30+01:00')).toBe(5);
		expect(pick('2026-12-03T12:30-01:00')).toBe(5);
		expect(pick('2026-12-03T12:59+01:00')).toBe(4);
		expect(parseVersionSpec('2026-12-01', 'A')).toEqual({ kind: 'time', at: at('2026-12-01T00:00:00Z') + DAY - 1, text: '2026-12-01' });
	});

	it('say why a version is missing: never was, evicted, before the page was seen, past the oldest kept', () => {
		expect(pick('9')).toBe('A: version 9 does not exist: versions 3 to 6 are kept');
		expect(pick('2')).toMatch(/^A: version 2 is no longer kept .*--keep-versions.*: versions 3 to 6 are kept$/);
		expect(pick('~4')).toBe('A: ~4 goes back past the oldest version kept: versions 3 to 6 are kept (~3 is the oldest)');
		expect(pick('2026-11-30')).toBe(
			'A: the version current at 2026-11-30 23:59:59Z is no longer kept: the oldest kept, version 3, was first seen 2026-12-01 10:00:00Z',
		);
		const fresh = resolveVersion(parseVersionSpec('2026-11-30', 'B'), [{ n: 1, firstSeen: at('2026-12-01T10:00:00Z') }], 'B');
		expect(fresh).toEqual({ problem: 'B: the page had not been seen yet at 2026-11-30 23:59:59Z: it was first seen 2026-12-01 10:00:00Z' });
	});

	it('refuse what is not a version, naming the argument', () => {
		for (const [text, message] of [
			['0', /^B: version 0 does not exist: versions are numbered from 1$/],
			['yesterday', /^B: cannot read 'yesterday' as a version: give a number from revisit log, first, latest, ~N/],
			['~x', /^B: cannot read '~x'/],
			['-1', /^B: cannot read '-1'/],
			// What bash makes of an unquoted ~ (and zsh of ~0).
			['/home/ann', /^B: cannot read '\/home\/ann' as a version: a shell expands a bare ~ and ~0 into directories, so write latest~N or quote it: give /],
			['2026-02-30', /^B: '2026-02-30' is not a date and time that exists$/],
			['2026-12-01T25:00', /^B: '2026-12-01T25:00' is not a date/],
		] as const) {
			let error: unknown;
			try {
				parseVersionSpec(text, 'B');
			} catch (caught) {
				error = caught;
			}
			expect(error, text).toBeInstanceOf(UsageError);
			expect((error as Error).message, text).toMatch(message);
		}
	});
});
