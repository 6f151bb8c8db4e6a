import { UsageError } from '../../base/errors/index.js';

/**
 * Which version of a page an argument names: its number (as `revisit log` shows it),
 * the first or latest kept, the one `back` changes before the latest, or the one current
 * at a time.
 */
export type VersionSpec = { kind: 'number'; n: number } | { kind: 'first' } | { kind: 'back'; back: number } | { kind: 'time'; at: number; text: string };

/** What a version needs for a specifier to find it: its number and when it was first seen. */
export interface VersionPoint {
	n: number;
	firstSeen: number;
}

// 2026-12-01, 2026-12-01T10:00, 2026-12-01 10:00:05, with an optional Z or ±hh:mm.
const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

// How long the unit a time ends with lasts: a day, a minute, a second.
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const SECOND_MS = 1000;

/** What a specifier may be, for error messages and --help. */
export const VERSION_FORMS =
	'a number from revisit log, first, latest, ~N or latest~N (N versions before the latest), ' +
	'or a date or time (2026-12-01, 2026-12-01T10:00; UTC unless it names a zone)';

/**
 * Reads a version specifier. A date or time stands for the end of what it names: a date
 * alone the end of that day (UTC), so that `2026-11-30 2026-12-01` compares the page as
 * it stood at the end of each day, what changed on the 1st; a time to the minute or the
 * second the end of that minute or second, so that a time copied from `revisit log`'s
 * table (to the second) names the version first seen then, not the one before; one with
 * a fraction is the very millisecond (as `log --json` writes them). A time without a
 * zone is UTC, as every time revisit prints.
 * Throws a UsageError naming `argument` (the argument's name in the command's usage).
 *
 * @example
 * parseVersionSpec('~2', 'A') // { kind: 'back', back: 2 }, as is 'latest~2'
 * parseVersionSpec('2026-12-01', 'A') // { kind: 'time', at: Date.UTC(2026, 11, 2) - 1, text: '2026-12-01' }
 */
export function parseVersionSpec(text: string, argument: string): VersionSpec {
	const spec = text.trim();
	if (/^\d+$/.test(spec)) {
		const n = Number(spec);
		if (n < 1 || !Number.isSafeInteger(n)) throw new UsageError(`${argument}: version ${spec} does not exist: versions are numbered from 1`);
		return { kind: 'number', n };
	}
	if (spec === 'first') return { kind: 'first' };
	if (spec === 'latest') return { kind: 'back', back: 0 };
	const back = /^(?:latest)?~(\d*)$/.exec(spec);
	if (back) return { kind: 'back', back: back[1] === '' ? 1 : Number(back[1]) };
	const date = DATE.exec(spec);
	if (date) return { kind: 'time', at: timeOf(date, spec, argument), text: spec };
	// A shell turns a bare ~ into $HOME and ~0 into $PWD before revisit sees them (zsh refuses ~N past its directory stack).
	const shell = spec.startsWith('/') ? ': a shell expands a bare ~ and ~0 into directories, so write latest~N or quote it' : '';
	throw new UsageError(`${argument}: cannot read '${text}' as a version${shell}: give ${VERSION_FORMS}`);
}

function timeOf(match: RegExpExecArray, spec: string, argument: string): number {
	const [, year, month, day, hour, minute, second, fraction, zone] = match;
	const fields = [year, month, day, hour ?? '00', minute ?? '00', second ?? '00'].map(Number) as [number, number, number, number, number, number];
	const [y, mo, d, h, mi, s] = fields;
	const utc = Date.UTC(y, mo - 1, d, h, mi, s);
	const check = new Date(utc);
	// Date.UTC rolls 2026-02-30 over to March: refuse it rather than guess.
	if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59)
		throw new UsageError(`${argument}: '${spec}' is not a date and time that exists`);
	const offset = zone === undefined || zone.toUpperCase() === 'Z' ? 0 : zoneMinutes(zone);
	const at = utc - offset * 60_000;
	if (fraction !== undefined) return at + Math.floor(Number(`0.${fraction}`) * 1000);
	return at + (hour === undefined ? DAY_MS : second === undefined ? MINUTE_MS : SECOND_MS) - 1;
}

function zoneMinutes(zone: string): number {
	const digits = zone.slice(1).replace(':', '');
	const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
	return zone.startsWith('-') ? -minutes : minutes;
}

/** A time as revisit prints it: UTC, to the second. */
export const utcTime = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}Z`;

/**
 * The version a specifier names among a page's versions (newest first, as `pageVersions`
 * gives them), or why there is none, as a sentence naming `argument`. `first` is the
 * oldest version kept: once a page has more versions than --keep-versions, the oldest are
 * gone, and their numbers with them.
 *
 * @example
 * resolveVersion({ kind: 'back', back: 1 }, versions, 'A') // { version: versions[1] }
 */
export function resolveVersion<V extends VersionPoint>(spec: VersionSpec, versions: readonly V[], argument: string): { version: V } | { problem: string } {
	const latest = versions[0];
	const oldest = versions.at(-1);
	if (!latest || !oldest) return { problem: 'no version is kept' };
	const kept = oldest.n === latest.n ? `the page has version ${latest.n} only` : `versions ${oldest.n} to ${latest.n} are kept`;
	switch (spec.kind) {
		case 'first':
			return { version: oldest };
		case 'back': {
			const version = versions[spec.back];
			if (version) return { version };
			return { problem: `${argument}: ~${spec.back} goes back past the oldest version kept: ${kept} (~${versions.length - 1} is the oldest)` };
		}
		case 'number': {
			const version = versions.find((candidate) => candidate.n === spec.n);
			if (version) return { version };
			if (spec.n > latest.n) return { problem: `${argument}: version ${spec.n} does not exist: ${kept}` };
			return { problem: `${argument}: version ${spec.n} is no longer kept (the oldest go first past --keep-versions): ${kept}` };
		}
		case 'time': {
			const version = versions.find((candidate) => candidate.firstSeen <= spec.at);
			if (version) return { version };
			if (oldest.n > 1)
				return {
					problem:
						`${argument}: the version current at ${utcTime(spec.at)} is no longer kept: the oldest kept, version ${oldest.n}, ` +
						`was first seen ${utcTime(oldest.firstSeen)}`,
				};
			return { problem: `${argument}: the page had not been seen yet at ${utcTime(spec.at)}: it was first seen ${utcTime(oldest.firstSeen)}` };
		}
	}
}
