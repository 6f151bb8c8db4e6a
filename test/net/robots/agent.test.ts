import { describe, expect, it } from 'vitest';
import { canBeNamed, crawlerName, groupAgent } from '../../../src/net/robots/agent.js';

describe('groupAgent: the name a User-agent line gives', () => {
	it.each([
		['Googlebot', 'googlebot'],
		['Googlebot/2.1', 'googlebot'],
		['Foo Bar', 'foo'],
		['AB42bot', 'ab'],
		['foo-bar_baz', 'foo-bar_baz'],
		['*', '*'],
		['* # all', '*'],
		['*\tand more', '*'],
		['*bot', ''],
		['42', ''],
		['ツbot', ''],
	])('%j names %j', (value, name) => {
		expect(groupAgent(value)).toBe(name);
	});
});

describe("crawlerName: the crawler's own name, compared whole", () => {
	it.each([
		['revisit', 'revisit'],
		['MJ12bot', 'mj12bot'],
		['Foo Bar', 'foo bar'],
		['  FooBot ', 'foobot'],
		['FooBot/1.0 (+https://example.org/bot)', 'foobot'],
	])('%j is %j', (agent, name) => {
		expect(crawlerName(agent)).toBe(name);
	});

	it('says which names a User-agent line can give', () => {
		expect(['revisit', 'Foo_Bar-baz', 'FooBot/1.0'].map(canBeNamed)).toEqual([true, true, true]);
		expect(['MJ12bot', 'Foo Bar', '', 'ツ', '*'].map(canBeNamed)).toEqual([false, false, false, false, false]);
	});
});
