import { describe, expect, it } from 'vitest';
import { normalisePath, PARSE_LIMIT_BYTES, parseableBytes, parseRobots } from '../../../src/net/robots/parse.js';

describe('parseableBytes', () => {
	it('skips a byte order mark at the start, whole or cut short, and nothing else', () => {
		const text = (bytes: number[]) => parseableBytes(Buffer.concat([Buffer.from(bytes), Buffer.from('User-agent: x')])).toString('latin1');
		expect(text([0xef, 0xbb, 0xbf])).toBe('User-agent: x');
		expect(text([0xef, 0xbb])).toBe('User-agent: x');
		expect(text([0xef])).toBe('User-agent: x');
		expect(text([0xef, 0x11, 0xbf])).toBe('\x11\xbfUser-agent: x');
		expect(text([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf])).toBe('\xef\xbb\xbfUser-agent: x');
	});

	it('cuts at the parse limit, whole lines only, the mark not counted', () => {
		const line = `# ${'x'.repeat(1021)}\n`;
		const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(line.repeat(PARSE_LIMIT_BYTES / 1024))]);
		expect(parseableBytes(body).length).toBe(PARSE_LIMIT_BYTES);
		expect(parseRobots(body).truncated).toBe(false);
		const over = Buffer.concat([body, Buffer.from('Disallow: /x')]);
		// The last whole line ends at the limit; its newline and the cut line go.
		expect(parseableBytes(over).length).toBe(PARSE_LIMIT_BYTES - 1);
		expect(parseRobots(over).truncated).toBe(true);
	});
});

describe('parseRobots: lines', () => {
	it('reads a line without its colon as key and value, keeping its line number', () => {
		const robots = parseRobots('user-agent FooBot\n\ndisallow /x\nallow\t/x/y\n');
		expect(robots.groups).toEqual([
			{
				agents: ['foobot'],
				line: 1,
				rules: [
					{ allow: false, pattern: '/x', written: '/x', line: 3 },
					{ allow: true, pattern: '/x/y', written: '/x/y', line: 4 },
				],
			},
		]);
	});

	it('a byte order mark inside the file makes its line unknown (it neither opens nor closes a group)', () => {
		const robots = parseRobots('User-agent: a\n\uFEFFDisallow: /x\n\uFEFFUser-agent: b\nDisallow: /y\n');
		expect(robots.groups).toEqual([{ agents: ['a'], line: 1, rules: [{ allow: false, pattern: '/y', written: '/y', line: 4 }] }]);
	});

	it('adds /dir/$ after an Allow of /dir/index.html, /dir/index.htm or /dir/index.php, and only then', () => {
		const rules = parseRobots('User-agent: *\nAllow: /dir/index.html\nAllow: /d/index.htm$\nAllow: /p/index.php\nDisallow: /q/index.html\n').groups[0]!.rules;
		expect(rules.map((rule) => [rule.allow, rule.pattern, rule.written, rule.line])).toEqual([
			[true, '/dir/index.html', '/dir/index.html', 2],
			[true, '/dir/$', '/dir/index.html', 2],
			[true, '/d/index.htm$', '/d/index.htm$', 3],
			[true, '/d/$', '/d/index.htm$', 3],
			[true, '/p/index.php', '/p/index.php', 4],
			[true, '/p/$', '/p/index.php', 4],
			[false, '/q/index.html', '/q/index.html', 5],
		]);
	});
});

describe('normalisePath', () => {
	it.each([
		['/foo/bar/ツ', '/foo/bar/%E3%83%84'],
		['/caf%c3%a9', '/caf%C3%A9'],
		['/foo/bar/%62%61%7a', '/foo/bar/baz'],
		['/%7Euser/%2d%2E%5f', '/~user/-._'],
		['/a%2fb', '/a%2Fb'],
		['/a/b?c=d&e=http://f/', '/a/b?c=d&e=http://f/'],
		['/a b"c<d>e{f}g|h^i`j\\k', '/a%20b%22c%3Cd%3Ee%7Bf%7Dg%7Ch%5Ei%60j%5Ck'],
		['/100%', '/100%25'],
		['/%zz', '/%25zz'],
		['/*.gif$', '/*.gif$'],
		['/\uD800x', '/%EF%BF%BDx'],
	])('%s is %s', (path, canonical) => {
		expect(normalisePath(path)).toBe(canonical);
	});
});
