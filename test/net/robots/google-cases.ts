import type { RfcCase } from './rfc-cases.js';

/**
 * Cases from Google's robots.txt parser's own tests (robots_test.cc in
 * github.com/google/robotstxt), the reference for how the major crawlers read a file
 * beyond RFC 9309. Each keeps the test's name; where revisit answers otherwise on
 * purpose, the case says so and holds revisit's answer (docs/4-politeness.md lists why).
 */
const F = 'http://foo.bar';

const groups = [
	'allow: /foo/bar/',
	'',
	'user-agent: FooBot',
	'disallow: /',
	'allow: /x/',
	'user-agent: BarBot',
	'disallow: /',
	'allow: /y/',
	'',
	'',
	'allow: /w/',
	'user-agent: BazBot',
	'',
	'user-agent: FooBot',
	'allow: /z/',
	'disallow: /',
].join('\n');

const upToFirstSpace = 'User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n';
const indexHtml = 'User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n';

export const googleCases: RfcCase[] = [
	// ID_LineSyntax_Line (Google-specific: a missing colon is assumed)
	{ name: 'LineSyntax_Line: key: value', robots: 'user-agent: FooBot\ndisallow: /\n', agent: 'FooBot', url: `${F}/x/y`, allowed: false },
	{ name: 'LineSyntax_Line: unknown keys', robots: 'foo: FooBot\nbar: /\n', agent: 'FooBot', url: `${F}/x/y`, allowed: true },
	{ name: 'LineSyntax_Line: colons missing, accepted', robots: 'user-agent FooBot\ndisallow /\n', agent: 'FooBot', url: `${F}/x/y`, allowed: false },
	// ID_LineSyntax_Groups
	{ name: 'LineSyntax_Groups: FooBot x', robots: groups, agent: 'FooBot', url: `${F}/x/b`, allowed: true },
	{ name: 'LineSyntax_Groups: FooBot z (second FooBot group)', robots: groups, agent: 'FooBot', url: `${F}/z/d`, allowed: true },
	{ name: 'LineSyntax_Groups: FooBot y', robots: groups, agent: 'FooBot', url: `${F}/y/c`, allowed: false },
	{ name: 'LineSyntax_Groups: BarBot y', robots: groups, agent: 'BarBot', url: `${F}/y/c`, allowed: true },
	{ name: 'LineSyntax_Groups: BarBot w (a rule after blank lines stays in the group)', robots: groups, agent: 'BarBot', url: `${F}/w/a`, allowed: true },
	{ name: 'LineSyntax_Groups: BarBot z', robots: groups, agent: 'BarBot', url: `${F}/z/d`, allowed: false },
	{ name: 'LineSyntax_Groups: BazBot z (BazBot joins the second FooBot group)', robots: groups, agent: 'BazBot', url: `${F}/z/d`, allowed: true },
	{ name: 'LineSyntax_Groups: rules before any group ignored (FooBot)', robots: groups, agent: 'FooBot', url: `${F}/foo/bar/`, allowed: false },
	{ name: 'LineSyntax_Groups: rules before any group ignored (BazBot)', robots: groups, agent: 'BazBot', url: `${F}/foo/bar/`, allowed: false },
	// ID_LineSyntax_Groups_OtherRules
	{
		name: 'Groups_OtherRules: Sitemap does not close a group',
		robots: 'User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n',
		agent: 'BarBot',
		url: `${F}/`,
		allowed: false,
	},
	{
		name: 'Groups_OtherRules: an unknown line does not close a group',
		robots: 'User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n',
		agent: 'FooBot',
		url: `${F}/`,
		allowed: false,
	},
	// ID_UserAgentValueCaseInsensitive, GoogleOnly_AcceptUserAgentUpToFirstSpace
	{
		name: 'UserAgentValueCaseInsensitive: FOO BAR names Foo',
		robots: 'User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n',
		agent: 'Foo',
		url: `${F}/x/y`,
		allowed: true,
	},
	{
		name: 'UserAgentValueCaseInsensitive: foo bar names foo',
		robots: 'User-Agent: foo bar\nAllow: /x/\nDisallow: /\n',
		agent: 'foo',
		url: `${F}/a/b`,
		allowed: false,
	},
	{ name: 'AcceptUserAgentUpToFirstSpace: Foo gets the Foo Bar group', robots: upToFirstSpace, agent: 'Foo', url: `${F}/x/y`, allowed: true },
	{ name: 'AcceptUserAgentUpToFirstSpace: Foo Bar is compared whole, gets *', robots: upToFirstSpace, agent: 'Foo Bar', url: `${F}/x/y`, allowed: false },
	// ID_GlobalGroups_Secondary
	{ name: 'GlobalGroups_Secondary: empty file', robots: '', agent: 'FooBot', url: `${F}/x/y`, allowed: true },
	{
		name: 'GlobalGroups_Secondary: own group over *',
		robots: 'user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n',
		agent: 'FooBot',
		url: `${F}/x/y`,
		allowed: false,
	},
	{
		name: 'GlobalGroups_Secondary: * for others',
		robots: 'user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n',
		agent: 'BarBot',
		url: `${F}/x/y`,
		allowed: true,
	},
	{
		name: 'GlobalGroups_Secondary: no * and no own group',
		robots: 'user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\n',
		agent: 'QuxBot',
		url: `${F}/x/y`,
		allowed: true,
	},
	// ID_LongestMatch
	{
		name: 'LongestMatch: disallow /x/page.html over allow /x/',
		robots: 'user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n',
		agent: 'FooBot',
		url: `${F}/x/page.html`,
		allowed: false,
	},
	{
		name: 'LongestMatch: equal patterns, allow wins',
		robots: 'user-agent: FooBot\ndisallow: /\nallow: /\n',
		agent: 'FooBot',
		url: `${F}/x/page.html`,
		allowed: true,
	},
	{ name: 'LongestMatch: /x vs /x/ (on /x)', robots: 'user-agent: FooBot\ndisallow: /x\nallow: /x/\n', agent: 'FooBot', url: `${F}/x`, allowed: false },
	{ name: 'LongestMatch: /x vs /x/ (on /x/)', robots: 'user-agent: FooBot\ndisallow: /x\nallow: /x/\n', agent: 'FooBot', url: `${F}/x/`, allowed: true },
	{
		name: 'LongestMatch: /*.html over /page',
		robots: 'user-agent: FooBot\nallow: /page\ndisallow: /*.html\n',
		agent: 'FooBot',
		url: `${F}/page.html`,
		allowed: false,
	},
	{
		name: 'LongestMatch: /x/page. over /*.html',
		robots: 'user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n',
		agent: 'FooBot',
		url: `${F}/x/page.html`,
		allowed: true,
	},
	{
		name: 'LongestMatch: /$ allows the root only',
		robots: 'user-agent: FooBot\nallow: /$\ndisallow: /\n',
		agent: 'FooBot',
		url: `${F}/page.html`,
		allowed: false,
	},
	// ID_Encoding
	{
		name: 'Encoding: a query holding a URL stays as it is',
		robots: 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n',
		agent: 'FooBot',
		url: `${F}/foo/bar?qux=taz&baz=http://foo.bar?tar&par`,
		allowed: true,
	},
	{
		name: 'Encoding: a 3-byte character in a rule matches its encoded URL',
		robots: 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n',
		agent: 'FooBot',
		url: `${F}/foo/bar/%E3%83%84`,
		allowed: true,
	},
	// Google leaves an unencoded URL as given and answers false; revisit parses URLs (WHATWG), which encodes ツ first (RFC 9309 §2.2.2: both sides encoded).
	{
		name: 'Encoding (revisit: the URL is encoded too): ツ in the URL matches ツ in the rule',
		robots: 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n',
		agent: 'FooBot',
		url: `${F}/foo/bar/ツ`,
		allowed: true,
	},
	{
		name: 'Encoding: an encoded rule matches the encoded URL',
		robots: 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n',
		agent: 'FooBot',
		url: `${F}/foo/bar/%E3%83%84`,
		allowed: true,
	},
	// Google compares %62%61%7A as written and answers false for /foo/bar/baz; RFC 9309
	// §2.2.2 (its own table) decodes unreserved characters, and revisit follows it.
	{
		name: 'Encoding (revisit: RFC 9309): %62%61%7A matches baz',
		robots: 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n',
		agent: 'FooBot',
		url: `${F}/foo/bar/baz`,
		allowed: true,
	},
	{
		name: 'Encoding: %62%61%7A matches itself',
		robots: 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n',
		agent: 'FooBot',
		url: `${F}/foo/bar/%62%61%7A`,
		allowed: true,
	},
	// ID_SpecialCharacters
	{
		name: 'SpecialCharacters: * in the middle',
		robots: 'User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n',
		agent: 'FooBot',
		url: `${F}/foo/bar/quz`,
		allowed: false,
	},
	{
		name: 'SpecialCharacters: $ at the end',
		robots: 'User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n',
		agent: 'FooBot',
		url: `${F}/foo/bar`,
		allowed: false,
	},
	{
		name: 'SpecialCharacters: $ at the end, longer path',
		robots: 'User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n',
		agent: 'FooBot',
		url: `${F}/foo/bar/baz`,
		allowed: true,
	},
	{
		name: 'SpecialCharacters: # comments',
		robots: 'User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n',
		agent: 'FooBot',
		url: `${F}/foo/quz`,
		allowed: false,
	},
	// GoogleOnly_IndexHTMLisDirectory
	{ name: 'IndexHTMLisDirectory: the directory is allowed', robots: indexHtml, agent: 'foobot', url: 'http://foo.com/allowed-slash/', allowed: true },
	{
		name: 'IndexHTMLisDirectory: index.htm is not index.html',
		robots: indexHtml,
		agent: 'foobot',
		url: 'http://foo.com/allowed-slash/index.htm',
		allowed: false,
	},
	{ name: 'IndexHTMLisDirectory: index.html itself', robots: indexHtml, agent: 'foobot', url: 'http://foo.com/allowed-slash/index.html', allowed: true },
	{ name: 'IndexHTMLisDirectory: another URL', robots: indexHtml, agent: 'foobot', url: 'http://foo.com/anyother-url', allowed: false },
	// GoogleOnly_DocumentationChecks
	{
		name: 'DocumentationChecks: /fish* equals /fish',
		robots: 'user-agent: FooBot\ndisallow: /\nallow: /fish*\n',
		agent: 'FooBot',
		url: `${F}/fishheads/yummy.html`,
		allowed: true,
	},
	{
		name: 'DocumentationChecks: /fish/ is not /fish',
		robots: 'user-agent: FooBot\ndisallow: /\nallow: /fish/\n',
		agent: 'FooBot',
		url: `${F}/fish`,
		allowed: false,
	},
	{
		name: 'DocumentationChecks: /*.php in a query',
		robots: 'user-agent: FooBot\ndisallow: /\nallow: /*.php\n',
		agent: 'FooBot',
		url: `${F}/index?f=filename.php/`,
		allowed: true,
	},
	{
		name: 'DocumentationChecks: /*.php$ with parameters',
		robots: 'user-agent: FooBot\ndisallow: /\nallow: /*.php$\n',
		agent: 'FooBot',
		url: `${F}/filename.php?parameters`,
		allowed: false,
	},
	{
		name: 'DocumentationChecks: /fish*.php is case-sensitive',
		robots: 'user-agent: FooBot\ndisallow: /\nallow: /fish*.php\n',
		agent: 'FooBot',
		url: `${F}/Fish.PHP`,
		allowed: false,
	},
	{
		name: 'DocumentationChecks: allow /p over disallow /',
		robots: 'user-agent: FooBot\nallow: /p\ndisallow: /\n',
		agent: 'FooBot',
		url: 'http://example.com/page',
		allowed: true,
	},
	// ID_UTF8ByteOrderMarkIsSkipped, as decisions: the file's first line still counts.
	{
		name: 'UTF8ByteOrderMarkIsSkipped: whole mark',
		robots: '\uFEFFUser-Agent: foo\nDisallow: /AnyValue\n',
		agent: 'foo',
		url: `${F}/AnyValue`,
		allowed: false,
	},
];
