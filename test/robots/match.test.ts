import { describe, expect, it } from 'vitest';
import { decide, isAllowed, rulesFor } from '../../src/robots/match.js';
import { parseRobots } from '../../src/robots/parse.js';
import { rfcCases } from './rfc-cases.js';

describe('robots.txt matcher: RFC 9309 conformance', () => {
	it.each(rfcCases)('$name', ({ robots, agent, url, allowed }) => {
		expect(isAllowed(parseRobots(robots), agent, url)).toBe(allowed);
	});
});

describe('rulesFor', () => {
	it('takes the crawl-delay of the agent\'s group, and says which group matched', () => {
		const robots = parseRobots('User-agent: *\nCrawl-delay: 5\n\nUser-agent: revisit\nCrawl-delay: 1\nDisallow: /x\n');
		const mine = rulesFor(robots, 'revisit/0.1');
		expect(mine).toMatchObject({ matched: 'agent', crawlDelay: 1 });
		expect(rulesFor(robots, 'other')).toMatchObject({ matched: '*', crawlDelay: 5 });
		expect(rulesFor(parseRobots(''), 'other')).toMatchObject({ matched: 'none', rules: [] });
	});

	it('names the deciding rule with its line', () => {
		const rules = rulesFor(parseRobots('User-agent: *\nDisallow: /private/\nAllow: /private/ok.html\n'), 'revisit');
		expect(decide(rules, '/private/ok.html')).toMatchObject({ allowed: true, rule: { written: '/private/ok.html', line: 3 } });
		expect(decide(rules, '/private/no.html')).toMatchObject({ allowed: false, rule: { written: '/private/', line: 2 } });
	});
});
