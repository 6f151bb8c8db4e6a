import { createHash } from 'node:crypto';
import { compile } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { UsageError } from '../../base/errors/index.js';
import type { RuleShown } from '../../store/model/types.js';
import { dotlessHostProblem, isHostname } from './url-match.js';

/**
 * A content rule as written (CLI flags, a rules file, a pipeline's compare stage): plain
 * data, defined in store/model/types.ts (`RuleShown`) so that run details can keep it.
 */
export type RuleSpec = RuleShown;

/** A CSS selector as written, and compiled. */
export interface Selector {
	source: string;
	test: ReturnType<typeof compile<AnyNode, Element>>;
}

/** A rule ready to apply: selectors compiled and patterns made once, when the run starts. */
export interface Rule {
	/** Short hash of the rule as written: stored with each content hash, so a changed rule is noticed. */
	id: string;
	matches(url: string): boolean;
	select?: Selector[] | undefined;
	exclude?: Selector[] | undefined;
	text: boolean;
	ignore: RegExp[];
	pointer?: readonly string[] | undefined;
	learn: boolean;
	/** Render the page in Chromium: never, when the static page cannot answer (auto), or always; absent: the run's `--render`. */
	render?: 'never' | 'auto' | 'always' | undefined;
	/** Only the page's offer counts (`--product`), with the selectors that read it where structured data is missing. */
	product?: { price?: Selector[] | undefined; availability?: Selector[] | undefined } | undefined;
}

/**
 * Checks and compiles a rule list, in order (the first rule that matches a URL wins).
 * A bad selector, pattern or pointer, or a `match` that is a word without a dot (read as
 * a host no one has), is a UsageError naming the rule and the field.
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
		const selectors = (field: string, sources: readonly string[] | undefined) =>
			sources?.map((source) => {
				const problem = selectorProblem(source);
				if (problem !== undefined) throw new UsageError(`${at}: ${field} ${JSON.stringify(source)} is not a CSS selector: ${problem}`);
				return { source, test: compile<AnyNode, Element>(source) };
			});
		const select = selectors('select', spec.select);
		const exclude = spec.exclude?.length ? selectors('exclude', spec.exclude) : undefined;
		if (isProductRule(spec)) {
			const other = (['select', 'text', 'pointer'] as const).find((field) => spec[field] !== undefined && spec[field] !== false);
			if (other)
				throw new UsageError(
					`${at}: a product rule counts the page's offer, so ${other} has nothing to count: read the price with price (--price SELECTOR), ` +
						`or put ${other} in a rule of its own`,
				);
		}
		const product = isProductRule(spec) ? { price: selectors('price', spec.price), availability: selectors('availability', spec.availability) } : undefined;
		for (const pointer of spec.pointer ?? []) {
			if (pointer !== '' && !pointer.startsWith('/'))
				throw new UsageError(`${at}: pointer ${JSON.stringify(pointer)} must be empty or start with / (RFC 6901)`);
		}
		const match = spec.match;
		const hostOnly = match !== undefined && isHostname(match);
		const dotless = hostOnly ? dotlessHostProblem(match) : undefined;
		if (dotless !== undefined) throw new UsageError(`${at}: match ${JSON.stringify(match)}: ${dotless}`);
		const matcher = match === undefined ? undefined : hostOnly ? undefined : pattern(match, 'match');
		return {
			id: ruleId(spec),
			matches: (url: string) => {
				if (match === undefined) return true;
				if (hostOnly) return hostOf(url) === match.toLowerCase();
				matcher!.lastIndex = 0;
				return matcher!.test(url);
			},
			select,
			exclude,
			text: spec.text ?? false,
			ignore: (spec.ignore ?? []).map((source) => pattern(source, 'ignore')),
			pointer: spec.pointer,
			learn: spec.learn ?? false,
			render: spec.render,
			product,
		};
	});
}

/**
 * A rule's id: a short hash of what it counts (`select`, `text`, `ignore`, `pointer`,
 * `exclude`, and the product fields), stored with each content hash, so that a changed rule is noticed. `match`
 * and `learn` are not in it: they say where and whether, not what counts.
 *
 * @example
 * ruleId({ select: ['.price'] }) // a 12-hex-digit id
 */
export function ruleId(spec: RuleSpec): string {
	// `exclude` joins the hashed list only when set, so the ids of rules written before it existed stay the same.
	const exclude = spec.exclude?.length || isProductRule(spec) ? [spec.exclude ?? []] : [];
	const product = isProductRule(spec) ? [{ product: true, price: spec.price ?? [], availability: spec.availability ?? [] }] : [];
	return createHash('sha1')
		.update(JSON.stringify([spec.select ?? [], spec.text ?? false, spec.ignore ?? [], spec.pointer ?? [], ...exclude, ...product]))
		.digest('hex')
		.slice(0, 12);
}

/** A rule that counts a page's offer: `product`, or selectors for its price or availability. */
export const isProductRule = (spec: RuleSpec): boolean => spec.product === true || (spec.price?.length ?? 0) > 0 || (spec.availability?.length ?? 0) > 0;

/**
 * Why `source` is not a CSS selector css-select can apply, in css-what's or css-select's
 * own words, or undefined. css-what's "Expected name, found " names what follows the
 * fault, which is nothing when the selector ends there: that is said in words.
 *
 * @example
 * selectorProblem('.price[') // 'Expected name, found the end of the selector'
 * selectorProblem('.price') // undefined
 */
export function selectorProblem(source: string): string | undefined {
	if (source.trim() === '') return 'an empty selector matches nothing';
	try {
		compile(source);
		return undefined;
	} catch (error) {
		const message = (error as Error).message;
		return /found $/.test(message) ? `${message}the end of the selector` : message;
	}
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
