import { createHash } from 'node:crypto';
import { compile } from 'css-select';
import { UsageError } from '../errors/index.js';

/** A content rule as written (CLI flags, a rules file, a pipeline's compare stage): plain data. */
export interface RuleSpec {
	/** Which URLs it applies to: a hostname (`example.org`), or a regular expression over the URL. Absent: every URL. */
	match?: string | undefined;
	/** CSS selectors: only the matching elements count (HTML). */
	select?: readonly string[] | undefined;
	/** Count the visible text only: scripts, styles and tags dropped, whitespace collapsed. */
	text?: boolean | undefined;
	/** Regular expressions whose matches are removed before hashing; for JSON, keys matching one are dropped. */
	ignore?: readonly string[] | undefined;
	/** JSON Pointers (RFC 6901): only these parts of a JSON document count. */
	pointer?: readonly string[] | undefined;
	/** Learn noise on the URLs this rule applies to, as `--learn-noise` does for all. */
	learn?: boolean | undefined;
}

/** A rule ready to apply: selectors compiled and patterns made once, when the run starts. */
export interface Rule {
	/** Short hash of the rule as written: stored with each content hash, so a changed rule is noticed. */
	id: string;
	matches(url: string): boolean;
	select?: Array<{ source: string; test: ReturnType<typeof compile> }> | undefined;
	text: boolean;
	ignore: RegExp[];
	pointer?: readonly string[] | undefined;
	learn: boolean;
}

/**
 * Checks and compiles a rule list, in order (the first rule that matches a URL wins).
 * A bad selector, pattern or pointer is a UsageError naming the rule and the field.
 *
 * @example
 * const rules = compileRules([{ match: 'shop.example', select: ['.price'] }], 'rules.json');
 */
export function compileRules(specs: readonly RuleSpec[], where = 'rule'): Rule[] {
	return specs.map((spec, i) => {
		const at = `${where} ${i + 1}`;
		const pattern = (source: string, field: string) => {
			try {
				return new RegExp(source, 'g');
			} catch (error) {
				throw new UsageError(`${at}: ${field} ${JSON.stringify(source)} is not a regular expression: ${(error as Error).message}`);
			}
		};
		const select = spec.select?.map((source) => {
			try {
				return { source, test: compile(source) };
			} catch (error) {
				throw new UsageError(`${at}: select ${JSON.stringify(source)} is not a CSS selector: ${(error as Error).message}`);
			}
		});
		for (const pointer of spec.pointer ?? []) {
			if (pointer !== '' && !pointer.startsWith('/')) throw new UsageError(`${at}: pointer ${JSON.stringify(pointer)} must be empty or start with / (RFC 6901)`);
		}
		const match = spec.match;
		const hostOnly = match !== undefined && /^[a-z0-9.-]+$/i.test(match);
		const matcher = match === undefined ? undefined : hostOnly ? undefined : pattern(match, 'match');
		return {
			id: createHash('sha1').update(JSON.stringify([spec.select ?? [], spec.text ?? false, spec.ignore ?? [], spec.pointer ?? []])).digest('hex').slice(0, 12),
			matches: (url: string) => {
				if (match === undefined) return true;
				if (hostOnly) return hostOf(url) === match.toLowerCase();
				matcher!.lastIndex = 0;
				return matcher!.test(url);
			},
			select,
			text: spec.text ?? false,
			ignore: (spec.ignore ?? []).map((source) => pattern(source, 'ignore')),
			pointer: spec.pointer,
			learn: spec.learn ?? false,
		};
	});
}

/** The first rule that applies to `url`, if any. */
export const ruleFor = (rules: readonly Rule[], url: string): Rule | undefined => rules.find((rule) => rule.matches(url));

const hostOf = (url: string): string => {
	try {
		return new URL(url).hostname;
	} catch {
		return '';
	}
};
