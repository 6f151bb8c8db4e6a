/**
 * The `match` of a content rule or a request header: which URLs it applies to. A host name
 * is compared whole with the URL's; anything else is a regular expression searched for
 * anywhere in the URL. A word without a dot (`fusion-backpack`) reads as a host name, and
 * no host is named so: it would match nothing, silently, so it is refused.
 */

/** A `match` that names a host (compared whole), not a pattern. */
export const isHostname = (match: string): boolean => /^[a-z0-9.-]+$/i.test(match);

/** The one host name without a dot that a match may name. */
const DOTLESS_HOSTS = new Set(['localhost']);

/**
 * Why a `match` written as a host name cannot be one: it has no dot (`localhost` aside);
 * the message says what it would do and what to write instead. Undefined for any other.
 * `port` lets a header's `localhost:8080` form through to the same check.
 *
 * @example
 * dotlessHostProblem('fusion-backpack')
 * // 'a word without a dot reads as a host name, and no host is named "fusion-backpack": it would match nothing. For the URLs …'
 * dotlessHostProblem('shop.example') // undefined
 */
export function dotlessHostProblem(match: string, { port = false } = {}): string | undefined {
	const parts = (port ? /^([a-z0-9-]+)(:\d+)?$/i : /^([a-z0-9-]+)()$/i).exec(match);
	if (!parts || DOTLESS_HOSTS.has(parts[1]!.toLowerCase())) return undefined;
	const word = parts[1]!;
	return (
		`a word without a dot reads as a host name, and no host is named ${JSON.stringify(word)}: it would match nothing. ` +
		(`For the URLs that hold the word, write a regular expression, searched for anywhere in the URL: ${JSON.stringify(`/${word}`)} or ` +
			`${JSON.stringify(`${word}$`)}; `) +
		'for a site, its host name in full: "shop.example"'
	);
}

/**
 * What is wrong with a content rule's `match`, or undefined: a dotless host name, or a
 * regular expression JavaScript does not take.
 *
 * @example
 * ruleMatchProblem('(shop') // '/(shop/: Unterminated group'
 * ruleMatchProblem('/item/') // undefined
 */
export function ruleMatchProblem(match: string): string | undefined {
	if (isHostname(match)) return dotlessHostProblem(match);
	return regexProblem(match);
}

/**
 * What is wrong with a request header's `match` (an origin, a host with or without a
 * port, or a regular expression), or undefined.
 *
 * @example
 * headerMatchProblem('api-token') // 'a word without a dot reads as a host name, …'
 * headerMatchProblem('https://api.example.org') // undefined
 */
export function headerMatchProblem(match: string): string | undefined {
	if (/^https?:\/\/[^/?#]+\/?$/i.test(match)) return URL.canParse(match) ? undefined : 'not an origin such as https://api.example.org';
	if (/^[a-z0-9.-]+(:\d+)?$/i.test(match)) return dotlessHostProblem(match, { port: true });
	return regexProblem(match);
}

/**
 * Why `source` is not a valid JavaScript regular expression, in its parser's words, or undefined.
 *
 * @example
 * regexProblem('(') // '/(/: Unterminated group'
 */
export function regexProblem(source: string): string | undefined {
	try {
		new RegExp(source);
		return undefined;
	} catch (error) {
		return (error as Error).message.replace(/^Invalid regular expression: /, '');
	}
}
