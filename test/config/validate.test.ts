import { describe, expect, it } from 'vitest';
import { problems } from '../helpers/pipeline-problems.js';
import { applyOverrides } from '../../src/config/overrides.js';
import { validatePipeline } from '../../src/config/validate.js';
import { ConfigError } from '../../src/base/errors/index.js';

const stdin = '"source": { "type": "stdin" }';
const stdout = '"sinks": [{ "type": "stdout" }]';

describe('pipeline validation', () => {
	it.each([
		['the minimal pipeline', `{ ${stdin}, ${stdout} }`],
		[
			'the example from the docs',
			`{ "$schema": "../pipeline.schema.json", "store": { "path": ".revisit" }, "source": { "type": "file", "path": "urls.txt" }, "stages": [{ "use": ` +
				`"probe", "concurrency": 24, "perHost": 4, "method": "auto" }], "sinks": [{ "type": "stdout", "format": "lines" }, { "type": "file", ` +
				`"path": "verdicts.ndjson", "format": "ndjson", "when": "all" }] }`,
		],
		[
			'a store path as a string, several sources',
			`{ "store": "db", "source": [{ "type": "urls", "urls": ["https://a.example/"] }, { "type": "sitemap", "url": "https://a.example/sitemap.xml" }, ` +
				`{ "type": "command", "command": "cat urls.txt" }], ${stdout} }`,
		],
		[
			'every stage, in order',
			`{ ${stdin}, "stages": [{ "use": "normalise" }, { "use": "dedupe" }, { "use": "filter", "include": ["^https://"], "exclude": ["\\\\.pdf$"], ` +
				`"sameHost": true }, { "use": "due", "ttl": "1h30m" }, { "use": "probe", "maxBody": 500000 }, { "use": "compare" }, { "use": ` +
				`"churn-guard", "maxChurn": 0 }, { "use": "fetch" }], "sinks": [{ "type": "dir", "path": "pages", "when": "all" }] }`,
		],
		[
			'a redis store, as settings and as a string',
			`{ "store": { "type": "redis", "url": "redis://app:pw@127.0.0.1:6379/2?prefix=crawl:" }, ${stdin}, ${stdout} }`,
		],
		['a redis store URL as the store string', `{ "store": "rediss://cache.internal:6380", ${stdin}, ${stdout} }`],
		[
			'any crawler name as robotsAgent (matched whole against robots.txt)',
			`{ ${stdin}, "stages": [{ "use": "probe", "robots": "obey", "robotsAgent": "MJ12bot 1.5" }], ${stdout} }`,
		],
		[
			'a memory store, every sink filter',
			`{ "store": { "type": "memory" }, ${stdin}, "sinks": [{ "type": "stdout", "when": "error" }, { "type": "file", "path": "x", "mode": "truncate", ` +
				`"when": "unchanged" }, { "type": "command", "command": "cat", "format": "ndjson" }] }`,
		],
	])('accepts %s', (_name, text) => {
		expect(problems(text)).toEqual([]);
	});

	it.each([
		[
			'a wrong type, with its line and the allowed range',
			`{\n  ${stdin},\n  "stages": [\n    { "use": "normalise" },\n    { "use": "dedupe" },\n    { "use": "probe", "concurrency": ` +
				`"many" }\n  ],\n  ${stdout}\n}`,
			['pipeline.json:6:38: /stages/2/concurrency: must be integer >= 1 (got "many")'],
		],
		[
			'an unknown key, with the allowed ones and the nearest',
			`{ ${stdin},\n "stages": [{ "use": "probe", "perhost": 4 }], ${stdout} }`,
			[
				'pipeline.json:2:31: /stages/0/perhost: unknown key; the probe stage takes concurrency, perHost, rate, acceptEncoding, userAgent, timeout, ' +
					'retries, maxRetryAfter, method, audit, verifyEvery, maxBody, denyPrivate, insecure, localWorkers, candidates, headers, robots, ' +
					'robotsAgent, maxCrawlDelay, keepText, keepTextTotal, keepVersions, diffOf, render, browser, renderTimeout, ' +
					'renderConcurrency or renderMemory (did you mean `perHost`?)',
			],
		],
		[
			'an unknown stage',
			`{ ${stdin}, "stages": [{ "use": "prob" }], ${stdout} }`,
			[
				'pipeline.json:1:54: /stages/0/use: unknown stage "prob"; stages are normalise, ' +
					'dedupe, filter, due, probe, compare, churn-guard and fetch (did you mean `probe`?)',
			],
		],
		[
			'a stage without use',
			`{ ${stdin}, "stages": [{ "concurrency": 3 }], ${stdout} }`,
			['pipeline.json:1:45: /stages/0: missing "use": name the stage, one of normalise, dedupe, filter, due, probe, compare, churn-guard or fetch'],
		],
		[
			'an unknown sink type and a misspelt enum value',
			`{ ${stdin}, "sinks": [{ "type": "stdot" }, { "type": "stdout", "format": "json" }] }`,
			[
				'pipeline.json:1:54: /sinks/0/type: unknown sink "stdot"; sinks are stdout, file, ' +
					'command, dir, atom, report, webhook, notify and warc (did you mean `stdout`?)',
				'pipeline.json:1:95: /sinks/1/format: must be one of lines or ndjson (got "json"; did you mean `ndjson`?)',
			],
		],
		[
			'missing top-level keys and an unknown one',
			`{ "sotre": "x" }`,
			[
				'pipeline.json:1:1: /: missing "source": a pipeline needs it',
				'pipeline.json:1:1: /: missing "sinks": a pipeline needs it',
				'pipeline.json:1:3: /sotre: unknown key; a pipeline takes $schema, mode, store, source, stages, sinks or watch (did you mean `store`?)',
			],
		],
		[
			'a source of the wrong shape and a required key missing',
			`{ "source": [{ "type": "file" }, "urls.txt"], "sinks": [] }`,
			[
				'pipeline.json:1:14: /source/0: missing "path": a file source needs it',
				'pipeline.json:1:34: /source/1: must be an object (got "urls.txt")',
				'pipeline.json:1:56: /sinks: must list at least one sink',
			],
		],
		[
			'a store that is neither a path nor settings',
			`{ "store": 5, ${stdin}, ${stdout} }`,
			['pipeline.json:1:12: /store: must be a non-empty string or an object (got 5)'],
		],
		[
			'bad durations, sizes, fractions, regexes and URLs, in file order',
			`{ "source": { "type": "sitemap", "url": "ftp://x/s.xml" }, "stages": [{ "use": "filter", "include": ["(a"] }, { "use": "due", "ttl": ` +
				`"6 hours" }, { "use": "probe", "audit": 2, "maxBody": "lots", "timeout": 0 }], ${stdout} }`,
			[
				'pipeline.json:1:41: /source/url: must be an absolute http(s) URL (got "ftp://x/s.xml")',
				'pipeline.json:1:102: /stages/0/include/0: must be a regular expression (got "(a": /(a/: Unterminated group)',
				'pipeline.json:1:134: /stages/1/ttl: must be a duration such as 30m, 6h or 2d (got "6 hours")',
				'pipeline.json:1:174: /stages/2/audit: must be number from 0 to 1 (got 2)',
				'pipeline.json:1:188: /stages/2/maxBody: must be a size such as 500000, 512KiB or 10MiB (got "lots")',
				'pipeline.json:1:207: /stages/2/timeout: must be number > 0 (got 0)',
			],
		],
		[
			'a bad selector with another schema problem, both at once, each with its line and the whole parser message',
			`{\n  ${stdin},\n  "stages": [\n    { "use": "probe", "concurrency": 0 },\n    { "use": "compare", "rules": [{ "select": [".price["], "exclude": ` +
				`["a:nope", ".ok"], "match": "(shop" }] }\n  ],\n  ${stdout}\n}`,
			[
				'pipeline.json:4:38: /stages/0/concurrency: must be integer >= 1 (got 0)',
				'pipeline.json:5:48: /stages/1/rules/0/select/0: must be a CSS selector (got ".price[": Expected name, found the end of the selector)',
				'pipeline.json:5:72: /stages/1/rules/0/exclude/0: must be a CSS selector (got "a:nope": Unknown pseudo-class :nope)',
				'pipeline.json:5:99: /stages/1/rules/0/match: must be a hostname or a regular expression (got "(shop": /(shop/: Unterminated group)',
			],
		],
		[
			"a rule's or a header's match that is a word without a dot, read as a host no one has; and a header match that is no regular expression",
			`{\n  ${stdin},\n  "stages": [\n    { "use": "probe", "headers": [{ "name": "X-A", "value": "1", "match": "api-host" }, { "name": "X-B", "value": ` +
				`"2", "match": "localhost:8080" }, { "name": "X-C", "value": "3", "match": "(v2" }] },\n    { "use": "compare", "rules": [{ "match": ` +
				`"backpack", "select": ["h1"] }] }\n  ],\n  ${stdout}\n}`,
			[
				'pipeline.json:4:75: /stages/0/headers/0/match: must be an origin, a hostname or a regular expression (got "api-host": ' +
					'a word without a dot reads as a host name, and no host is named "api-host": it would match nothing. For the URLs that hold the word, ' +
					'write a regular expression, searched for anywhere in the URL: "/api-host" or "api-host$"; for a site, its host name in full: ' +
					'"shop.example")',
				'pipeline.json:4:189: /stages/0/headers/2/match: must be an origin, a hostname or a regular expression (got "(v2": /(v2/: Unterminated group)',
				'pipeline.json:5:46: /stages/1/rules/0/match: must be a hostname or a regular expression (got "backpack": ' +
					'a word without a dot reads as a host name, and no host is named "backpack": it would match nothing. For the URLs that hold the word, ' +
					'write a regular expression, searched for anywhere in the URL: "/backpack" or "backpack$"; for a site, its host name in full: ' +
					'"shop.example")',
			],
		],
		[
			'a --when condition with a syntax error or an unknown name, each with the column in the expression',
			`{\n  ${stdin},\n  "stages": [{ "use": "compare", "when": "price <<< 40" }],\n  ${stdout}\n}`,
			['pipeline.json:3:42: /stages/0/when: must be a condition such as changed_words > 3 or price < 40 (got "price <<< 40": syntax error at column 8)'],
		],
		[
			"a --when condition with text in 'single quotes', which name a variable, with the fix",
			`{ ${stdin}, "stages": [{ "use": "compare", "when": "availability == 'InStock'" }], ${stdout} }`,
			[
				'pipeline.json:1:73: /stages/0/when: must be a condition such as changed_words > 3 or price < 40 (got "availability == \'InStock\'": ' +
					"unknown name 'InStock' at column 17 ('single quotes' make a name: write text in double quotes, \"InStock\"))",
			],
		],
		[
			'a --when condition naming what is not a name',
			`{ ${stdin}, "stages": [{ "use": "compare", "when": "prise < 40" }], ${stdout} }`,
			[
				'pipeline.json:1:73: /stages/0/when: must be a condition such as changed_words > 3 or price < 40 (got "prise < 40": ' +
					'unknown name `prise` at column 1 (did you mean `price`? the names are price, previous_price, currency, availability, price_change, ' +
					'in_stock, was_in_stock, text, changed_words))',
			],
		],
		[
			'stages out of order or twice',
			`{ ${stdin}, "stages": [{ "use": "probe" }, { "use": "dedupe" }, { "use": "probe" }], ${stdout} }`,
			[
				'pipeline.json:1:74: /stages/1/use: `dedupe` must come before `probe`; ' +
					'stages run in this order: normalise, dedupe, filter, due, probe, compare, churn-guard, fetch',
				'pipeline.json:1:95: /stages/2/use: `probe` is listed twice (also /stages/0); list each stage once',
			],
		],
		[
			'a fetch stage without a dir sink',
			`{ ${stdin}, "stages": [{ "use": "fetch" }], ${stdout} }`,
			['pipeline.json:1:45: /stages/0: the fetch stage downloads bodies for a dir sink: add { "type": "dir", "path": "pages" } to sinks'],
		],
		[
			'a dir sink without a fetch stage, stdin twice, a memory store with a path, min > max interval',
			`{ "store": { "type": "memory", "path": "x" }, "source": [{ "type": "stdin" }, { "type": "stdin" }], "stages": ` +
				`[{ "use": "due", "minInterval": "2d", "maxInterval": "1d" }], "sinks": [{ "type": "dir", "path": "p" }] }`,
			[
				'pipeline.json:1:32: /store/path: a memory store has no path: remove it, or make the type level',
				'pipeline.json:1:79: /source/1: stdin can be read only once',
				'pipeline.json:1:143: /stages/0/minInterval: must not be longer than maxInterval (2d > 1d)',
				'pipeline.json:1:183: /sinks/0: a dir sink writes fetched bodies: add { "use": "fetch" } to stages',
			],
		],
		[
			'a redis store without a url',
			`{ "store": { "type": "redis" }, ${stdin}, ${stdout} }`,
			['pipeline.json:1:12: /store: a redis store needs a url, e.g. "url": "redis://127.0.0.1:6379"'],
		],
		[
			'a redis URL that does not parse, without repeating its password',
			`{ "store": { "type": "redis", "url": "redis://app:hunter2@db/x" }, ${stdin}, ${stdout} }`,
			['pipeline.json:1:38: /store/url: must be a Redis URL such as redis://127.0.0.1:6379/0?prefix=revisit: (got "redis://app:***@db/x")'],
		],
		[
			'a url on a level store',
			`{ "store": { "path": "db", "url": "redis://127.0.0.1" }, ${stdin}, ${stdout} }`,
			['pipeline.json:1:28: /store/url: a level store has no url: remove it, or make the type redis'],
		],
	])('rejects %s', (_name, text, expected) => {
		expect(problems(text)).toEqual(expected);
	});

	it.each([
		['{\n  "source": { "type": "stdin" },\n  "sinks": [{ "type": "stdout" },]\n}', 'pipeline.json:3:34: invalid JSON: trailing comma before ]'],
		['{\n  "source": { "type": "stdin" }\n  "sinks": []\n}', 'pipeline.json:3:3: invalid JSON: expected a comma'],
		["{ 'source': 1 }", 'pipeline.json:1:3: invalid JSON: strings and names take double quotes'],
		['// a comment\n{}', 'pipeline.json:1:1: invalid JSON: comments are not allowed in JSON'],
		['{ "source": "x', 'pipeline.json:1:13: invalid JSON: unterminated string'],
		['', 'pipeline.json:1:1: invalid JSON: the file is empty'],
		['{ "a": 1 } 2', 'pipeline.json:1:12: invalid JSON: expected the end of the document'],
	])('gives the line and column of a JSON syntax error: %j', (text, expected) => {
		expect(problems(text)).toEqual([expected]);
	});

	it('names the --set responsible for a bad value, and the file for the rest', () => {
		const text = `{ ${stdin},\n "stages": [{ "use": "probe", "retries": -1 }], ${stdout} }`;
		expect(problems(text, ['concurrency=many', 'ttl=soon', 'sinks.0.when=everything'])).toEqual([
			'pipeline.json:2:42: /stages/1/retries: must be integer >= 0 (got -1)',
			'--set ttl=soon: /stages/0/ttl: must be a duration such as 30m, 6h or 2d (got "soon")',
			'--set concurrency=many: /stages/1/concurrency: must be integer >= 1 (got "many")',
			'--set sinks.0.when=everything: /sinks/0/when: must be one of changed, all, error or unchanged (got "everything")',
		]);
	});

	it('validates a config object from code, without line numbers', () => {
		expect(() => validatePipeline({ source: { type: 'stdin' }, sinks: [{ type: 'stdout', when: 'al' }] })).toThrow(
			'pipeline: /sinks/0/when: must be one of changed, all, error or unchanged (got "al"; did you mean `all`?)',
		);
		const error = (() => {
			try {
				validatePipeline({});
			} catch (thrown) {
				return thrown as ConfigError;
			}
		})();
		expect(error).toBeInstanceOf(ConfigError);
		expect(error).toMatchObject({
			code: 'CONFIG_INVALID',
			problems: ['pipeline: /: missing "source": a pipeline needs it', 'pipeline: /: missing "sinks": a pipeline needs it'],
		});
	});
});

describe('--set overrides', () => {
	const base = () => ({
		source: { type: 'file', path: 'urls.txt' },
		stages: [{ use: 'dedupe' }, { use: 'fetch' }],
		sinks: [{ type: 'stdout' }, { type: 'dir', path: 'pages' }],
	});

	it('sets options by name or path, adding a missing stage in its place, values as JSON or strings', () => {
		const { config } = applyOverrides(base(), [
			'concurrency=8',
			'ttl=6h',
			'stages.fetch.fetchPerHost=1',
			'sinks.0.when=all',
			'source.path=other.txt',
			'store=/var/lib/revisit',
			'acceptChurn=["a.example"]',
			'userAgent="123"',
		]);
		expect(config).toEqual({
			store: '/var/lib/revisit',
			source: { type: 'file', path: 'other.txt' },
			stages: [
				{ use: 'dedupe' },
				{ use: 'due', ttl: '6h' },
				{ use: 'probe', concurrency: 8, userAgent: '123' },
				{ use: 'churn-guard', acceptChurn: ['a.example'] },
				{ use: 'fetch', fetchPerHost: 1 },
			],
			sinks: [
				{ type: 'stdout', when: 'all' },
				{ type: 'dir', path: 'pages' },
			],
		});
		expect(() => validatePipeline(config)).not.toThrow();
	});

	it.each([
		['concurrency8', '--set concurrency8: expected key.path=value, e.g. --set concurrency=8'],
		[
			'concurency=8',
			'--set concurency=8: concurency is neither a pipeline key ($schema, mode, store, ' +
				'source, stages, sinks, watch) nor a stage option (did you mean `concurrency`?)',
		],
		[
			'stages.prob.concurrency=8',
			'--set stages.prob.concurrency=8: unknown stage "prob"; stages are normalise, ' +
				'dedupe, filter, due, probe, compare, churn-guard, fetch (did you mean `probe`?)',
		],
		['source.path.x=1', '--set source.path.x=1: source.path is "urls.txt", not an object or list; set it whole instead'],
		['sinks.5.when=all', '--set sinks.5.when=all: sinks has 2 entries; 5 is past the end'],
		['sinks.dir.when=all', '--set sinks.dir.when=all: sinks is a list: index it by number, e.g. sinks.0'],
	])('refuses --set %s with a usage error', (set, message) => {
		expect(() => applyOverrides(base(), [set])).toThrow(message);
	});
});
