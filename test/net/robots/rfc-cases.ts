/**
 * RFC 9309's text and examples as cases: a robots.txt, an agent, a URL, and whether the
 * RFC allows it. The matcher's conformance suite (match.test.ts) runs them; so did the
 * measurement that chose to write the matcher rather than use robots-parser.
 */
export interface RfcCase {
	name: string;
	robots: string;
	agent: string;
	url: string;
	allowed: boolean;
}

// RFC 9309 §5.1, the simple example.
const simple = [
	'User-Agent: *',
	'Disallow: *.gif$',
	'Disallow: /example/',
	'Allow: /publications/',
	'',
	'User-Agent: foobot',
	'Disallow:/',
	'Allow:/example/page.html',
	'Allow:/example/allowed.gif',
	'',
	'User-Agent: barbot',
	'User-Agent: bazbot',
	'Disallow: /example/page.html',
	'',
	'User-Agent: quxbot',
	'',
	'EOF',
].join('\n');

// RFC 9309 §5.2, longest match.
const longest = ['User-Agent: foobot', 'Allow: /example/page/', 'Disallow: /example/page/disallowed.gif'].join('\n');

// RFC 9309 §2.2.1: groups naming the same agent are merged.
const merged = ['user-agent: ExampleBot', 'disallow: /foo', 'disallow: /bar', '', 'user-agent: ExampleBot', 'disallow: /baz'].join('\n');

const O = 'https://example.com';

export const rfcCases: RfcCase[] = [
	// §5.1
	{ name: '5.1 foobot: allowed page', robots: simple, agent: 'foobot', url: `${O}/example/page.html`, allowed: true },
	{ name: '5.1 foobot: allowed gif', robots: simple, agent: 'foobot', url: `${O}/example/allowed.gif`, allowed: true },
	{ name: '5.1 foobot: everything else disallowed', robots: simple, agent: 'foobot', url: `${O}/publications/`, allowed: false },
	{ name: '5.1 foobot: root disallowed', robots: simple, agent: 'foobot', url: `${O}/`, allowed: false },
	{ name: '5.1 barbot: page disallowed', robots: simple, agent: 'barbot', url: `${O}/example/page.html`, allowed: false },
	{ name: '5.1 bazbot: page disallowed (second agent of a group)', robots: simple, agent: 'bazbot', url: `${O}/example/page.html`, allowed: false },
	{ name: '5.1 barbot: * rules do not apply to a named agent', robots: simple, agent: 'barbot', url: `${O}/example/x.gif`, allowed: true },
	{ name: '5.1 quxbot: empty group allows everything', robots: simple, agent: 'quxbot', url: `${O}/example/page.html`, allowed: true },
	{ name: '5.1 other agent: *.gif$ disallowed', robots: simple, agent: 'otherbot', url: `${O}/a/b.gif`, allowed: false },
	{ name: '5.1 other agent: .gif not at the end is allowed', robots: simple, agent: 'otherbot', url: `${O}/a/b.gif?x=1`, allowed: true },
	{ name: '5.1 other agent: /example/ disallowed', robots: simple, agent: 'otherbot', url: `${O}/example/x.html`, allowed: false },
	{ name: '5.1 other agent: /publications/ allowed', robots: simple, agent: 'otherbot', url: `${O}/publications/a`, allowed: true },
	{ name: '5.1 other agent: unmatched path allowed', robots: simple, agent: 'otherbot', url: `${O}/elsewhere`, allowed: true },
	// §5.2
	{ name: '5.2 longest match: disallowed gif', robots: longest, agent: 'foobot', url: `${O}/example/page/disallowed.gif`, allowed: false },
	{ name: '5.2 longest match: page dir allowed', robots: longest, agent: 'foobot', url: `${O}/example/page/other`, allowed: true },
	// §2.2.1 product token and groups
	{ name: '2.2.1 product token is case-insensitive', robots: simple, agent: 'FooBot', url: `${O}/publications/`, allowed: false },
	{ name: '2.2.1 product token taken from a full user-agent', robots: simple, agent: 'FooBot/1.0 (+https://x)', url: `${O}/example/page.html`, allowed: true },
	{ name: '2.2.1 merged groups: first group', robots: merged, agent: 'examplebot', url: `${O}/foo`, allowed: false },
	{ name: '2.2.1 merged groups: second group', robots: merged, agent: 'examplebot', url: `${O}/baz`, allowed: false },
	{ name: '2.2.1 no group matches and no *: allowed', robots: merged, agent: 'otherbot', url: `${O}/foo`, allowed: true },
	{
		name: '2.2.1 a user-agent line with a version names the token',
		robots: 'User-agent: FooBot/2.1\nDisallow: /x',
		agent: 'foobot',
		url: `${O}/x`,
		allowed: false,
	},
	// §2.2.2 rules
	{ name: '2.2.2 tie between allow and disallow: allow', robots: 'User-agent: *\nDisallow: /page\nAllow: /page', agent: 'a', url: `${O}/page`, allowed: true },
	{ name: '2.2.2 empty disallow matches nothing', robots: 'User-agent: *\nDisallow:', agent: 'a', url: `${O}/anything`, allowed: true },
	{ name: '2.2.2 rules are prefixes of the path', robots: 'User-agent: *\nDisallow: /fish', agent: 'a', url: `${O}/fish.html`, allowed: false },
	{ name: '2.2.2 match is case-sensitive', robots: 'User-agent: *\nDisallow: /fish', agent: 'a', url: `${O}/Fish.html`, allowed: true },
	{ name: '2.2.2 the query is part of the path', robots: 'User-agent: *\nDisallow: /foo/bar?baz=quz', agent: 'a', url: `${O}/foo/bar?baz=quz`, allowed: false },
	{
		name: '2.2.2 non-ASCII rule matches its percent-encoded URL',
		robots: 'User-agent: *\nDisallow: /foo/bar/ツ',
		agent: 'a',
		url: `${O}/foo/bar/%E3%83%84`,
		allowed: false,
	},
	{
		name: '2.2.2 percent-encoded rule matches itself',
		robots: 'User-agent: *\nDisallow: /foo/bar/%E3%83%84',
		agent: 'a',
		url: `${O}/foo/bar/%E3%83%84`,
		allowed: false,
	},
	{
		name: '2.2.2 encoded unreserved characters match their plain form',
		robots: 'User-agent: *\nDisallow: /foo/bar/%62%61%7A',
		agent: 'a',
		url: `${O}/foo/bar/baz`,
		allowed: false,
	},
	{
		name: '2.2.2 plain rule matches an encoded unreserved URL',
		robots: 'User-agent: *\nDisallow: /foo/bar/baz',
		agent: 'a',
		url: `${O}/foo/bar/%62%61%7A`,
		allowed: false,
	},
	{ name: '2.2.2 /robots.txt is always allowed', robots: 'User-agent: *\nDisallow: /', agent: 'a', url: `${O}/robots.txt`, allowed: true },
	{ name: '2.2.2 rules before any user-agent are ignored', robots: 'Disallow: /x\nUser-agent: *\nDisallow: /y', agent: 'a', url: `${O}/x`, allowed: true },
	// §2.2.3 special characters
	{
		name: '2.2.3 * matches any run of characters',
		robots: 'User-agent: *\nDisallow: /this/*/exactly',
		agent: 'a',
		url: `${O}/this/path/exactly`,
		allowed: false,
	},
	{
		name: '2.2.3 $ anchors the end: exact path',
		robots: 'User-agent: *\nDisallow: /this/path/exactly$',
		agent: 'a',
		url: `${O}/this/path/exactly`,
		allowed: false,
	},
	{
		name: '2.2.3 $ anchors the end: longer path allowed',
		robots: 'User-agent: *\nDisallow: /this/path/exactly$',
		agent: 'a',
		url: `${O}/this/path/exactly/more`,
		allowed: true,
	},
	{ name: '2.2.3 # starts a comment', robots: 'User-agent: * # everyone\nDisallow: /a # not /b\n# Disallow: /b', agent: 'a', url: `${O}/b`, allowed: true },
	{ name: '2.2.3 a comment does not end the rule', robots: 'User-agent: * # everyone\nDisallow: /a # not /b', agent: 'a', url: `${O}/a`, allowed: false },
	// §2.3: the file belongs to one origin; the matcher is asked about another origin's URL.
	{
		name: '2.3 answers for a URL of any origin (the caller picks the file)',
		robots: 'User-agent: *\nDisallow: /x',
		agent: 'a',
		url: 'https://other.example/x',
		allowed: false,
	},
	// §2.4 keys are case-insensitive, whitespace is allowed
	{ name: '2.4 keys are case-insensitive', robots: 'USER-AGENT: *\nDISALLOW: /x', agent: 'a', url: `${O}/x`, allowed: false },
	{ name: '2.4 CRLF line ends', robots: 'User-agent: *\r\nDisallow: /x\r\n', agent: 'a', url: `${O}/x`, allowed: false },
];
