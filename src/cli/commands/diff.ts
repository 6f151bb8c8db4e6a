import type { Argv, CommandModule } from 'yargs';
import { wordDiffText } from '../../domain/content/word-diff-text.js';
import { UsageError } from '../../base/errors/index.js';
import { compareTexts, unifiedPatch } from '../../outputs/history/version-diff.js';
import { parseVersionSpec, resolveVersion, utcTime, VERSION_FORMS, type VersionSpec } from '../../outputs/history/version-spec.js';
import { versionRow } from '../../outputs/history/version-table.js';
import type { StoreReader } from '../../store/model/types.js';
import { versionTexts, type PageVersion } from '../../domain/versions/index.js';
import { safeJson, visibleLine } from '../../base/util/visible.js';
import { rawStream, type CliIo } from '../io.js';
import { createWriter } from '../terminal.js';
import { urlArgument, versionsOf } from '../shared/page-versions.js';
import type { CommandResult } from '../shared/result.js';
import { storeOption, withStore } from '../shared/store-option.js';
import type { ArgvOf } from '../flags/groups.js';

const DIFF_EPILOG = `A and B each name a version:
${VERSION_FORMS}.
A date or time names the version current at the end of the day, minute or second it
gives, so "2026-11-30 2026-12-01" shows what changed on the 1st, and a time copied from
revisit log names the version first seen then. Without B, B is the latest; without A, A is the one before it. "first" is the
oldest version kept (--keep-versions keeps the last 50).

The word diff marks removed words [-so-] and added ones {+so+} (git's --word-diff), in
red and green instead when stdout is a terminal (--color; NO_COLOR is honoured); "…"
stands for the unchanged text left out. --unified writes a unified diff of the lines
(diff -u's format, for patch and patch viewers). --json writes one JSON document: url,
same, from and to (each version as revisit log --json writes it), added and removed
(words), and hunks: a list of hunks, each a list of [op, text] with op -1 removed,
1 added, 0 unchanged (absent when the versions are too different to diff word by word).

Two versions whose text is the same, with a change between them that moved only the
page's bytes (an inline script, an attribute: revisit log says "same text"), are said so:
"the text is the same; the bytes changed: …", and --json adds it as note.

Exit status, as diff(1): 0 the two versions are the same; 1 they differ (in their text,
or in bytes only, as above); 2 trouble: a bad argument, a URL not in the store or a
version not kept, a store error.`;

/** The diff's positionals and flags, from which its handler's arguments are typed. */
function diffBuilder(yargs: Argv, io: CliIo) {
	return storeOption(yargs, io.env)
		.positional('url', { type: 'string', demandOption: true, describe: 'The page, as it was swept' })
		.positional('a', { type: 'string', describe: 'The version to compare from [default: the one before B]' })
		.positional('b', { type: 'string', describe: 'The version to compare to [default: latest]' })
		.options({
			json: { type: 'boolean', default: false, describe: 'One JSON document: the two versions, the words added and removed, the word diff as hunks' },
			unified: { alias: 'u', type: 'boolean', default: false, describe: 'A unified diff of the lines (diff -u), for patch and patch viewers' },
			color: {
				choices: ['auto', 'always', 'never'] as const,
				default: 'auto' as const,
				describe: 'Colour the word diff: auto is when stdout is a terminal and NO_COLOR is unset',
			},
		})
		.example('revisit diff https://example.org/news', 'What the last change changed')
		.example('revisit diff https://example.org/news first latest', 'Everything that changed since the page was first seen')
		.example('revisit diff https://example.org/news latest~3', 'The last three changes at once (~3 alone, quoted: a shell may expand it)')
		.example('revisit diff https://example.org/news 2026-11-30 2026-12-01', 'What changed on the 1st of December')
		.example('revisit log URL; revisit diff URL 12 14', 'Two versions picked from the log')
		.example('revisit diff -u URL first | delta', 'A unified diff for a patch viewer')
		.example('revisit diff URL 2026-12-01 >/dev/null; [ $? = 1 ] && echo changed', 'Script on the exit status: 1 when the page changed since then')
		.epilog(DIFF_EPILOG);
}

type DiffArgs = ArgvOf<ReturnType<typeof diffBuilder>>;

/** `revisit diff URL [A] [B]`: what changed in a page between two of its versions. */
export function diffCommand(io: CliIo, result: CommandResult): CommandModule<object, DiffArgs> {
	return {
		command: 'diff <url> [a] [b]',
		describe: 'Show what changed in a page between two of its versions (default: the latest change), word by word',
		builder: (yargs) => diffBuilder(yargs, io),
		handler: async (args) => {
			if (args.json && args.unified) throw new UsageError('--json and --unified cannot be combined: --unified writes a patch, --json one JSON document');
			const url = urlArgument(args.url);
			const from: VersionSpec = args.a === undefined ? { kind: 'back', back: 1 } : parseVersionSpec(args.a, 'A');
			const to: VersionSpec = args.b === undefined ? { kind: 'back', back: 0 } : parseVersionSpec(args.b, 'B');
			const pair = await withStore(args.store, { create: false, viaWatch: true }, (store) => loadPair(store, url, args, from, to));
			if ('problem' in pair) {
				io.stderr.write(`revisit: ${pair.problem}\n`);
				result.status = 2;
				return;
			}
			const comparison = compareTexts(pair.before, pair.after);
			const write = createWriter(io.stdout);
			const latest = pair.latest;
			// The same text, and a change between them that moved only bytes: it was reported, so it is said, never "the same".
			const note = comparison.same ? bytesNote(pair) : undefined;
			if (args.json) {
				const document = {
					url,
					same: comparison.same,
					from: versionRow(url, pair.from, pair.from.n === latest),
					to: versionRow(url, pair.to, pair.to.n === latest),
					added: comparison.added,
					removed: comparison.removed,
					...(comparison.hunks ? { hunks: comparison.hunks } : {}),
					...(note === undefined ? {} : { note }),
				};
				await write(`${safeJson(document)}\n`);
			} else if (note !== undefined) {
				await write(
					`${visibleLine(url)}: version ${pair.from.n} (${utcTime(pair.from.firstSeen)}) → version ${pair.to.n} (${utcTime(pair.to.firstSeen)}): ` +
						`${visibleLine(note)}\n`,
				);
			} else if (!comparison.same) {
				if (args.unified || comparison.hunks === undefined) {
					if (!args.unified) io.stderr.write(`revisit: versions ${pair.from.n} and ${pair.to.n} are too different to diff word by word; a line diff follows\n`);
					await write(
						unifiedPatch(
							pair.before,
							pair.after,
							{ label: `${url} (version ${pair.from.n})`, time: pair.from.firstSeen },
							{ label: `${url} (version ${pair.to.n})`, time: pair.to.firstSeen },
						),
					);
				} else {
					const colour = args.color === 'always' || (args.color === 'auto' && (io.stdout as { isTTY?: boolean }).isTTY === true && !io.env.NO_COLOR);
					const header =
						`${visibleLine(url)}: version ${pair.from.n} (${utcTime(pair.from.firstSeen)}) → version ${pair.to.n} ` +
						`(${utcTime(pair.to.firstSeen)}), words +${comparison.added} −${comparison.removed}`;
					// The word diff's text is made visible as it is marked: its colours must reach the terminal as written.
					const shown = colour ? createWriter(rawStream(io.stdout)) : write;
					await shown(`${colour ? `\x1b[1m${header}\x1b[m` : header}\n\n${wordDiffText(comparison.hunks, colour ? 'color' : 'plain')}\n`);
				}
			}
			result.status = comparison.same && note === undefined ? 0 : 1;
		},
	};
}

interface Pair {
	from: PageVersion;
	to: PageVersion;
	before: string;
	after: string;
	latest: number;
	/** The versions after `from` up to `to`, newest first: the changes between them. */
	between: PageVersion[];
}

/**
 * Where two versions' texts are the same: the note of the changes between them that
 * moved bytes only (the one's own, or which versions), or undefined where none did.
 */
function bytesNote(pair: Pair): string | undefined {
	const moved = pair.between.filter((version) => version.note !== undefined);
	if (moved.length === 0) return undefined;
	if (moved.length === 1) return moved[0]!.note;
	const numbers = moved.map((version) => version.n).reverse();
	return `the text is the same; the bytes changed in versions ${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
}

/** The two versions the arguments name, with their texts, or why not (a sentence for stderr). */
async function loadPair(store: StoreReader, url: string, args: DiffArgs, fromSpec: VersionSpec, toSpec: VersionSpec): Promise<Pair | { problem: string }> {
	const page = await versionsOf(store, url, args.store);
	if ('problem' in page) return page;
	const { versions } = page;
	const to = resolveVersion(toSpec, versions, 'B');
	if ('problem' in to) return to;
	// The default A is the version before B, whatever B is.
	const from = args.a === undefined ? previousOf(versions, to.version) : resolveVersion(fromSpec, versions, 'A');
	if ('problem' in from) return from;
	const texts = await versionTexts(store, url, [from.version.n, to.version.n]);
	const [before, after] = [texts.get(from.version.n), texts.get(to.version.n)];
	const missing = before === undefined ? from.version.n : after === undefined ? to.version.n : undefined;
	if (missing !== undefined) return { problem: `${url}: the text of version ${missing} could not be read from the store` };
	const between = versions.filter((version) => version.n > from.version.n && version.n <= to.version.n);
	return { from: from.version, to: to.version, before: before!, after: after!, latest: versions[0]!.n, between };
}

function previousOf(versions: readonly PageVersion[], version: PageVersion): { version: PageVersion } | { problem: string } {
	const at = versions.indexOf(version);
	const previous = versions[at + 1];
	if (previous) return { version: previous };
	if (versions.length === 1)
		return {
			problem:
				`${versions[0]!.n === 1 ? 'the page has one version only' : 'one version only is kept'} (version ${version.n}, ` +
				`first seen ${utcTime(version.firstSeen)}): nothing to compare it with yet`,
		};
	return { problem: `version ${version.n} is the oldest kept: name a version after it as B, or an A to compare it with` };
}
