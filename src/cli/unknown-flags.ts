import { editDistance, nearest } from '../base/util/suggest.js';
import { UsageError } from '../base/errors/index.js';

/** What yargs knows of the command that was parsed: its flags (long and short) and which of them are hidden or boolean. */
export interface KnownFlags {
	command: string | undefined;
	names: readonly string[];
	hidden: readonly string[];
	booleans: readonly string[];
}

/** What to say of a flag the command lacks but a pipeline file has, if anything (pipeline-flag-hint.ts). */
export type PipelineFlagHint = (command: string | undefined, flag: TypedFlag) => string | undefined;

const UNKNOWN = /^Unknown arguments?: (.*)$/s;

/**
 * yargs's "Unknown argument: concurency" as a user can act on it: each flag named as it
 * was typed (`--concurency`, `-Q`), with the nearest flag the command has. A flag of a
 * pipeline's stages given to `run` or `check` points to `--set` (`pipelineHint`: main.ts
 * passes pipelineFlagHint; the quick CLI for log and diff, which have no pipeline, does not
 * load the pipeline schema it reads). Other messages (an
 * extra positional argument) are left as yargs wrote them: undefined.
 *
 * @example
 * unknownFlagError('Unknown argument: concurency', ['sweep', '--concurency', '4'], known)
 * // UsageError('unknown flag --concurency: did you mean --concurrency?')
 */
export function unknownFlagError(message: string, args: readonly string[], known: KnownFlags, pipelineHint?: PipelineFlagHint): UsageError | undefined {
	const match = UNKNOWN.exec(message);
	if (!match) return undefined;
	const keys = match[1]!.split(', ');
	const typed = typedFlags(args);
	const lines: string[] = [];
	const extra: string[] = [];
	for (const key of keys) {
		const flag = typed.find((candidate) => candidate.keys.includes(key));
		if (!flag) {
			extra.push(key);
			continue;
		}
		if (lines.some((line) => line.includes(` ${flag.name}`))) continue;
		lines.push(explain(flag, known, pipelineHint));
	}
	if (extra.length > 0) lines.push(`unexpected argument${extra.length === 1 ? '' : 's'}: ${extra.join(', ')}`);
	return new UsageError(lines.join('; '));
}

/** One flag as typed: its name (`--no-robotz`, `-Q`), the keys yargs reports it under, and the value written after it. */
export interface TypedFlag {
	name: string;
	keys: string[];
	value: string | undefined;
	negated: boolean;
}

function typedFlags(args: readonly string[]): TypedFlag[] {
	const flags: TypedFlag[] = [];
	for (const [i, arg] of args.entries()) {
		if (arg === '--') break;
		if (!arg.startsWith('-') || arg === '-' || /^-\d/.test(arg)) continue;
		const equals = arg.indexOf('=');
		const name = equals < 0 ? arg : arg.slice(0, equals);
		const next = args[i + 1];
		const value = equals >= 0 ? arg.slice(equals + 1) : next !== undefined && !next.startsWith('-') ? next : undefined;
		if (name.startsWith('--')) {
			const bare = name.slice(2);
			const negated = bare.startsWith('no-');
			const keys = [bare, camel(bare), ...(negated ? [bare.slice(3), camel(bare.slice(3))] : [])];
			flags.push({ name, keys, value, negated });
		} else {
			// -abc is -a -b -c to yargs.
			for (const letter of name.slice(1)) flags.push({ name: `-${letter}`, keys: [letter], value: name.length === 2 ? value : undefined, negated: false });
		}
	}
	return flags;
}

function explain(flag: TypedFlag, known: KnownFlags, pipelineHint: PipelineFlagHint | undefined): string {
	const bare = flag.name.startsWith('--') ? flag.name.replace(/^--(no-)?/, '') : flag.name.slice(1);
	const hint = pipelineHint?.(known.command, flag);
	if (hint !== undefined) return hint;
	const shown = known.names.filter((name) => !known.hidden.includes(name));
	const near = flag.name.startsWith('--')
		? nearest(
				bare,
				shown.filter((name) => name.length > 1),
			)
		: shown.find((name) => name.length === 1 && name.toLowerCase() === bare.toLowerCase());
	// nearest() allows two edits even in a short name; --foo is no typo of --now.
	if (
		near === undefined ||
		(near.length > 1 && editDistance(bare.toLowerCase(), near.toLowerCase()) > Math.max(1, Math.floor(bare.length / 3)) && !folded(bare, near))
	)
		return `unknown flag ${flag.name}`;
	const suggestion = near.length === 1 ? `-${near}` : flag.negated && known.booleans.includes(near) ? `--no-${near}` : `--${near}`;
	return `unknown flag ${flag.name}: did you mean ${suggestion}?`;
}

const folded = (a: string, b: string): boolean => a.replaceAll(/[-_]/g, '').toLowerCase() === b.replaceAll('-', '').toLowerCase();

const camel = (flag: string): string => flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
