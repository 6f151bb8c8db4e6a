import { crawlerName } from './agent.js';
import { normalisePath, type Robots, type RobotsGroup, type RobotsRule } from './parse.js';

/** What applies to an agent: the merged rules of its groups (or of `*`), with where they came from. */
export interface AgentRules {
	/** The groups merged (their first lines), empty when none applies (everything allowed). */
	groups: RobotsGroup[];
	/** `agent`: groups naming the product token; `*`: the catch-all; `none`: no group applies. */
	matched: 'agent' | '*' | 'none';
	rules: RobotsRule[];
	/** Seconds between two requests, when a group sets it (the largest of the merged groups). */
	crawlDelay?: number | undefined;
}

/** The answer for one path. */
export interface RobotsDecision {
	allowed: boolean;
	/** The rule that decided, if one matched. */
	rule?: RobotsRule | undefined;
}

/**
 * The rules for a crawler (RFC 9309 §2.2.1, as Google's matcher reads it): every group
 * whose user-agent name (`groupAgent`) equals the crawler's whole name (`crawlerName`),
 * case-insensitively, merged; else every `*` group, merged; else none. `Foo Bar` is
 * not the `Foo` of a `User-agent: Foo Bar` line, so only `*` groups apply to it.
 *
 * @example
 * rulesFor(parseRobots(text), 'revisit').rules
 */
export function rulesFor(robots: Robots, agent: string): AgentRules {
	const name = crawlerName(agent);
	let groups = name === '' || name === '*' ? [] : robots.groups.filter((group) => group.agents.includes(name));
	let matched: AgentRules['matched'] = 'agent';
	if (groups.length === 0) {
		groups = robots.groups.filter((group) => group.agents.includes('*'));
		matched = groups.length === 0 ? 'none' : '*';
	}
	const delays = groups.map((group) => group.crawlDelay).filter((delay): delay is number => delay !== undefined);
	return { groups, matched, rules: groups.flatMap((group) => group.rules), crawlDelay: delays.length === 0 ? undefined : Math.max(...delays) };
}

/**
 * Whether a path (with its query) is allowed under an agent's rules (RFC 9309 §2.2.2):
 * the matching rule with the longest pattern wins, allow wins a tie, no match allows,
 * and `/robots.txt` is always allowed. `*` matches any run of characters, a final `$`
 * anchors the end; both sides are percent-normalised.
 *
 * @example
 * decide(rulesFor(robots, 'revisit'), '/private/ok.html').allowed // true
 */
export function decide(rules: AgentRules, path: string): RobotsDecision {
	const target = normalisePath(path === '' ? '/' : path);
	if (target === '/robots.txt') return { allowed: true };
	let best: RobotsRule | undefined;
	for (const rule of rules.rules) {
		if (!matches(rule.pattern, target)) continue;
		if (!best || rule.pattern.length > best.pattern.length || (rule.pattern.length === best.pattern.length && rule.allow && !best.allow)) best = rule;
	}
	return { allowed: best?.allow ?? true, rule: best };
}

/**
 * Whether a URL may be fetched by `agent` under `robots`, for any origin: the caller
 * passes the origin's robots.txt; only the URL's path and query are compared.
 *
 * @example
 * isAllowed(parseRobots('User-agent: *\nDisallow: /a'), 'revisit', 'https://x.test/a/b') // false
 */
export function isAllowed(robots: Robots, agent: string, url: string): boolean {
	return decide(rulesFor(robots, agent), pathOf(url)).allowed;
}

/** A URL's path and query, as robots.txt rules see them (the raw, still-encoded form). */
export function pathOf(url: string): string {
	const parsed = new URL(url);
	return `${parsed.pathname}${parsed.search}`;
}

const compiled = new Map<string, RegExp>();

function matches(pattern: string, target: string): boolean {
	if (!pattern.includes('*') && !pattern.endsWith('$')) return target.startsWith(pattern);
	let regex = compiled.get(pattern);
	if (!regex) {
		const anchored = pattern.endsWith('$');
		const body = anchored ? pattern.slice(0, -1) : pattern;
		const source = body
			.split('*')
			.map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
			.join('.*');
		regex = new RegExp(`^${source}${anchored ? '$' : ''}`, 's');
		if (compiled.size > 10_000) compiled.clear();
		compiled.set(pattern, regex);
	}
	return regex.test(target);
}
