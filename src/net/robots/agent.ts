// Who a group is for, and who the crawler is, as Google's parser (github.com/google/robotstxt)
// reads them: a group's name is cut at its first character outside [A-Za-z_-], the
// crawler's name is compared whole. RFC 9309 §2.2.1 asks for product tokens of exactly
// those characters; files and users write more, and this is what the major crawlers do with it.

const TOKEN = /^[A-Za-z_-]*/;

/**
 * The name a `User-agent` line gives, lower-cased: `*` (alone, or before whitespace) is
 * the catch-all; any other value counts up to its first character that is not a letter,
 * `_` or `-`, so `Googlebot/2.1` names `googlebot`, `Foo Bar` names `foo` and `AB42bot`
 * names `ab`. A value with no such leading character (`42`, `*bot`) names nobody: ``.
 *
 * @example
 * groupAgent('Googlebot/2.1') // 'googlebot'
 */
export function groupAgent(value: string): string {
	if (/^\*(\s|$)/.test(value)) return '*';
	return TOKEN.exec(value)![0].toLowerCase();
}

/**
 * The crawler's own name as it is compared with the groups' names: whole, trimmed,
 * lower-cased; a whole User-Agent (`FooBot/1.0 (+https://…)`) counts up to its `/`.
 * A name holding anything but letters, `_` and `-` (`Foo Bar`, `MJ12bot`) equals no
 * group's name, so only the `*` groups apply to it, as in Google's matcher.
 *
 * @example
 * crawlerName('FooBot/1.0 (+https://example.org/bot)') // 'foobot'
 * crawlerName('Foo Bar') // 'foo bar'
 */
export function crawlerName(agent: string): string {
	const slash = agent.indexOf('/');
	return (slash === -1 ? agent : agent.slice(0, slash)).trim().toLowerCase();
}

/**
 * Whether a crawler's name can be named by a group: non-empty, letters, `_` and `-` only
 * (RFC 9309 §2.2.1's product token). `revisit robots` says so when it cannot.
 *
 * @example
 * canBeNamed('MJ12bot') // false
 */
export function canBeNamed(agent: string): boolean {
	const name = crawlerName(agent);
	return name !== '' && TOKEN.exec(name)![0] === name;
}
