import { describe, expect, it } from 'vitest';
import { decide, isAllowed, rulesFor } from '../../../src/net/robots/match.js';
import { parseRobots } from '../../../src/net/robots/parse.js';
import { googleCases } from './google-cases.js';
import { rfcCases } from './rfc-cases.js';

describe('robots.txt matcher: RFC 9309 conformance', () => {
	it.each(rfcCases)('$name', ({ robots, agent, url, allowed }) => {
		expect(isAllowed(parseRobots(robots), agent, url)).toBe(allowed);
	});
});

describe("robots.txt matcher: Google's parser's test cases", () => {
	it.each(googleCases)('$name', ({ robots, agent, url, allowed }) => {
		expect(isAllowed(parseRobots(robots), agent, url)).toBe(allowed);
	});
});

const O = 'https://example.com';
const allowed = (robots: string | Buffer, url: string, agent = 'foobot') => isAllowed(parseRobots(robots), agent, `${O}${url}`);
const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

describe('a byte order mark', () => {
	it('opening the file, whole or cut short, leaves the first line in force', () => {
		for (const mark of [[0xef, 0xbb, 0xbf], [0xef, 0xbb], [0xef]]) {
			const file = bytes(mark, 'User-agent: FooBot\nDisallow: /x\n');
			expect(allowed(file, '/x'), mark.join(' ')).toBe(false);
			expect(allowed(file, '/y'), mark.join(' ')).toBe(true);
		}
		expect(allowed('\uFEFFUser-agent: FooBot\nDisallow: /x\n', '/x')).toBe(false);
	});

	it('anywhere else spoils its line: a Disallow after it is not one', () => {
		const file = bytes('User-agent: FooBot\nDisallow: /a\n', [0xef, 0xbb, 0xbf], 'Disallow: /x\n');
		expect(allowed(file, '/x')).toBe(true);
		expect(allowed(file, '/a')).toBe(false);
		expect(allowed('User-agent: FooBot\n\uFEFFDisallow: /x\n', '/x')).toBe(true);
	});

	it('a broken one spoils the first line, as any garbage would', () => {
		const file = bytes([0xef, 0x11, 0xbf], 'User-agent: FooBot\nDisallow: /x\n');
		expect(allowed(file, '/x')).toBe(true);
	});
});

describe('a line without its colon', () => {
	it('counts when it is a key and a value, apart by blanks', () => {
		expect(allowed('user-agent FooBot\ndisallow /x\n', '/x')).toBe(false);
		expect(allowed('User-agent: *\nDisallow\t/x\nAllow /x/y\n', '/x/z', 'other')).toBe(false);
		expect(allowed('User-agent: *\nDisallow\t/x\nAllow /x/y\n', '/x/y', 'other')).toBe(true);
		expect(allowed('user-agent FooBot # a comment\ndisallow /x # another\n', '/x')).toBe(false);
	});

	it('does not count with more than two words, or with one', () => {
		expect(allowed('user-agent FooBot\ndisallow /x /y\n', '/x')).toBe(true);
		expect(allowed('user-agent FooBot\ndisallow\n', '/x')).toBe(true);
		expect(allowed('user agent FooBot\ndisallow /x\n', '/x')).toBe(true);
	});
});

describe('an allowed index page', () => {
	const file = 'User-agent: *\nDisallow: /\nAllow: /dir/index.html\nAllow: /old/index.htm\nAllow: /app/index.php\nAllow: /index.html\n';

	it('allows its directory, exactly (/dir/$), as Google does', () => {
		expect(allowed(file, '/dir/')).toBe(true);
		expect(allowed(file, '/dir/index.html')).toBe(true);
		expect(allowed(file, '/old/')).toBe(true);
		expect(allowed(file, '/app/')).toBe(true);
		expect(allowed(file, '/')).toBe(true);
		expect(allowed(file, '/dir/other.html')).toBe(false);
		expect(allowed(file, '/dir/?q=1')).toBe(false);
		expect(allowed(file, '/dir')).toBe(false);
	});

	it('a disallowed index page does not stand for the directory', () => {
		expect(allowed(file, '/app/index.php')).toBe(true);
		expect(allowed('User-agent: *\nDisallow: /dir/index.html\n', '/dir/')).toBe(true);
	});

	it('names the Allow line it came from', () => {
		expect(decide(rulesFor(parseRobots(file), 'a'), '/dir/')).toMatchObject({ allowed: true, rule: { written: '/dir/index.html', line: 3 } });
	});
});

describe('percent-encoding, normalised on both sides', () => {
	it('compares characters outside ASCII as percent-encoded UTF-8, in the rule and in the URL', () => {
		const file = 'User-agent: *\nDisallow: /café\nDisallow: /%E3%83%84\n';
		expect(allowed(file, '/café/menu')).toBe(false);
		expect(allowed(file, '/caf%C3%A9/menu')).toBe(false);
		expect(allowed(file, '/caf%c3%a9/menu')).toBe(false);
		expect(allowed(file, '/ツ')).toBe(false);
		expect(allowed(file, '/cafe')).toBe(true);
	});

	it('decodes encoded unreserved characters', () => {
		expect(allowed('User-agent: *\nDisallow: /%62%61%7A\n', '/baz')).toBe(false);
		expect(allowed('User-agent: *\nDisallow: /baz\n', '/%62%61%7a')).toBe(false);
		expect(allowed('User-agent: *\nDisallow: /%7Euser\n', '/~user/x')).toBe(false);
	});

	it('matches hex digits in either case', () => {
		expect(allowed('User-agent: *\nDisallow: /a%aa\n', '/a%AA')).toBe(false);
		expect(allowed('User-agent: *\nDisallow: /a%AA\n', '/a%aa')).toBe(false);
	});

	it('keeps reserved characters as they are: /a%2Fb is not /a/b', () => {
		expect(allowed('User-agent: *\nDisallow: /a%2Fb\n', '/a/b')).toBe(true);
		expect(allowed('User-agent: *\nDisallow: /a/b\n', '/a%2Fb')).toBe(true);
		expect(allowed('User-agent: *\nDisallow: /a%2fb\n', '/a%2Fb')).toBe(false);
		expect(allowed('User-agent: *\nDisallow: /q?a=1%262\n', '/q?a=1&2')).toBe(true);
	});

	it('compares characters a URL may not hold raw encoded, as the URL parser writes them', () => {
		expect(allowed('User-agent: *\nDisallow: /a"b\n', '/a"b')).toBe(false);
		expect(allowed('User-agent: *\nDisallow: /a{b}\n', '/a{b}')).toBe(false);
		expect(allowed('User-agent: *\nDisallow: /a%7cb\n', '/a|b')).toBe(false);
		expect(allowed('User-agent: *\nDisallow: /100%\n', '/100%25')).toBe(false);
	});
});

describe('user-agent names', () => {
	it("a group's name counts up to its first character that is not a letter, _ or -", () => {
		const file = 'User-agent: *\nDisallow: /\n\nUser-agent: AB42bot\nUser-agent: Foo Bar\nUser-agent: Googlebot/2.1\nAllow: /\n';
		for (const agent of ['AB', 'ab', 'Foo', 'googlebot', 'Googlebot/2.1 (+http://www.google.com/bot.html)'])
			expect(allowed(file, '/x', agent), agent).toBe(true);
		for (const agent of ['AB42bot', 'Foo Bar', 'Bar', 'MJ12bot']) expect(allowed(file, '/x', agent), agent).toBe(false);
	});

	it("the crawler's name is compared whole and case-insensitively", () => {
		const file = 'User-agent: *\nDisallow: /\n\nUser-agent: MJ12bot\nAllow: /\n\nUser-agent: foo-bar_baz\nAllow: /\n';
		expect(allowed(file, '/x', 'MJ')).toBe(true);
		expect(allowed(file, '/x', 'MJ12bot')).toBe(false);
		expect(allowed(file, '/x', 'FOO-BAR_BAZ')).toBe(true);
		expect(allowed(file, '/x', 'foo-bar')).toBe(false);
		expect(allowed(file, '/x', 'foo')).toBe(false);
	});

	it('* alone or before a blank is the catch-all; a name no line can give gets only that', () => {
		expect(rulesFor(parseRobots('User-agent: * # all\nDisallow: /\n'), 'x').matched).toBe('*');
		expect(rulesFor(parseRobots('User-agent: * and more\nDisallow: /\n'), 'x').matched).toBe('*');
		expect(rulesFor(parseRobots('User-agent: *bot\nDisallow: /\n'), 'x').matched).toBe('none');
		expect(rulesFor(parseRobots('User-agent: 42\nDisallow: /\n'), '42').matched).toBe('none');
		expect(rulesFor(parseRobots('User-agent: *\nDisallow: /\n'), 'Foo Bar').matched).toBe('*');
	});
});

describe('/robots.txt itself', () => {
	it('stays allowed whatever the rules', () => {
		for (const rule of ['/', '/robots.txt', '/robots', '/*.txt$', '/r']) {
			const file = `User-agent: *\nDisallow: ${rule}\n\nUser-agent: foobot\nDisallow: ${rule}\nAllow: /x\n`;
			expect(allowed(file, '/robots.txt'), rule).toBe(true);
			expect(allowed(file, '/robots.txt', 'other'), rule).toBe(true);
		}
		expect(allowed('User-agent: *\nDisallow: /\n', '/%72obots.txt')).toBe(true);
		expect(allowed('User-agent: *\nDisallow: /\n', '/robots.txt.bak')).toBe(false);
	});
});

describe('rulesFor', () => {
	it("takes the crawl-delay of the agent's group, and says which group matched", () => {
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
