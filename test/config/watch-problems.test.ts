import { describe, expect, it } from 'vitest';
import { problems } from '../helpers/pipeline-problems.js';

const urls = '"source": { "type": "urls", "urls": ["https://a.example/"] }';
const stdout = '"sinks": [{ "type": "stdout" }]';

describe('watch mode in a pipeline file', () => {
	it.each([
		['mode run, as a run is without it', `{ "mode": "run", ${urls}, ${stdout} }`],
		["mode watch with the watch's defaults", `{ "mode": "watch", ${urls}, ${stdout} }`],
		[
			'every watch setting, every source a watch reads again, and the stages and sinks it takes',
			`{ "mode": "watch", "source": [{ "type": "stdin" }, { "type": "file", "path": "urls.txt" }, { "type": "file", "path": "urls.json", "format": ` +
				`"lines" }, { "type": "urls", "urls": [] }, { "type": "sitemap", "url": "https://a.example/sitemap.xml" }],
			  "stages": [{ "use": "normalise" }, { "use": "dedupe" }, { "use": "filter", "exclude": ["\\\\.pdf$"] }, { "use": "due", "minInterval": "10m", ` +
				`"maxInterval": "7d", "now": "2024-05-01T00:00:00Z" }, { "use": "probe", "concurrency": 4, "localWorkers": 0 }, { "use": "compare" }],
			  "sinks": [{ "type": "stdout" }, { "type": "atom", "path": "feed.xml" }, { "type": "warc", "path": "w.warc.gz" }, { "type": "report", "path": ` +
				`"r.html" }, { "type": "webhook", "url": "http://127.0.0.1:1/" }, { "type": "file", "path": "v.ndjson", "format": "ndjson" }, { "type": ` +
				`"command", "command": "cat" }],
			  "watch": { "rate": "5000/h", "hostRate": 0.5, "until": "2d", "timeScale": 3600, "sitemapEvery": "6h", "listen": "127.0.0.1:9464" } }`,
		],
		[
			'an until as epoch ms, a listen on every interface or IPv6',
			`{ "mode": "watch", ${urls}, ${stdout}, "watch": { "until": 1714521600000, "listen": "[::1]:0" } }`,
		],
	])('accepts %s', (_name, text) => {
		expect(problems(text)).toEqual([]);
	});

	it('refuses watch settings without "mode": "watch", naming the key', () => {
		expect(problems(`{ ${urls}, ${stdout},\n  "watch": { "rate": "1/s" } }`)).toEqual([
			'pipeline.json:2:3: /watch: watch settings need "mode": "watch"; without it the pipeline runs once (mode run)',
		]);
		expect(problems(`{ "mode": "run", ${urls}, ${stdout}, "watch": {} }`)).toEqual([
			'pipeline.json:1:113: /watch: watch settings need "mode": "watch"; without it the pipeline runs once (mode run)',
		]);
		expect(problems(`{ "mode": "sweep", ${urls}, ${stdout} }`)).toEqual(['pipeline.json:1:11: /mode: must be one of run or watch (got "sweep")']);
	});

	it("checks the watch's values as its flags are checked, each at its line", () => {
		const text =
			`{ "mode": "watch", ${urls}, ${stdout},\n  "watch": {\n    "rate": "fast",\n    "hostRate": 0,\n    "until": "soon",\n    "timeScale": ` +
			`-1,\n    "sitemapEvery": "daily",\n    "listen": "9464",\n    "rates": 2,\n    "listenHost": ["watch.example:80"]\n  }\n}`;
		expect(problems(text)).toEqual([
			'pipeline.json:3:13: /watch/rate: must be a number of checks per second, minute, hour or day, such as 20/s, 5000/h or 100000/d (got "fast")',
			'pipeline.json:4:17: /watch/hostRate: must be number > 0 (got 0)',
			'pipeline.json:5:14: /watch/until: must be a time in ISO 8601, or a duration from the start such as 12h or 30d (got "soon")',
			'pipeline.json:6:18: /watch/timeScale: must be number > 0 (got -1)',
			'pipeline.json:7:21: /watch/sitemapEvery: must be a duration such as 30m, 6h or 2d (got "daily")',
			'pipeline.json:8:15: /watch/listen: must be HOST:PORT, such as 127.0.0.1:9464, :9464 (every interface) or [::1]:9464 (got "9464")',
			'pipeline.json:9:5: /watch/rates: unknown key; the watch takes rate, hostRate, until, ' +
				'timeScale, sitemapEvery, lease, listen, listenHost or statusEvery (did you mean `rate`?)',
			'pipeline.json:10:20: /watch/listenHost/0: must be a host name or an IP address without a port, ' +
				'such as watch.example.org or 10.0.0.5 (got "watch.example:80")',
		]);
	});

	it("refuses, each at its path, the sources a watch cannot read again and the stages, options and sinks a run's end gives meaning to", () => {
		const text =
			`{
  "mode": "watch",
  "source": [{ "type": "stdin" }, { "type": "file", "path": "urls.json" }, { "type": "command", "command": "cat urls" }, { "type": "file", "path": ` +
			`"list", "format": "json" }],
  "stages": [{ "use": "due", "ttl": "6h", "adaptive": true, "budget": 10, "hostBudget": 2 }, { "use": "probe", "rate": 2, "localWorkers": 2 }, { "use": ` +
			`"churn-guard" }, { "use": "fetch" }],
  "sinks": [{ "type": "dir", "path": "pages" }, { "type": "stdout" }]
}`;
		expect(problems(text)).toEqual([
			'pipeline.json:3:35: /source/1: a watch reads a file source one URL per line (read again when it changes); ' +
				'a JSON array of URLs is not read in a watch: write the file one URL per line, with "format": "lines" if its name ends in .json',
			'pipeline.json:3:76: /source/2: a watch reads its sources again and again, and a command source is read once: ' +
				'write its URLs to a file source (read again when it changes), or pipe them in on stdin',
			'pipeline.json:3:122: /source/3: a watch reads a file source one URL per line (read again when it changes); ' +
				'a JSON array of URLs is not read in a watch: write the file one URL per line, with "format": "lines" if its name ends in .json',
			"pipeline.json:4:30: /stages/0/ttl: a watch's schedule decides when each URL is checked again (watch.rate): remove ttl",
			"pipeline.json:4:43: /stages/0/adaptive: a watch's schedule is always adaptive, each URL checked when a check of it is worth most: remove adaptive",
			'pipeline.json:4:61: /stages/0/budget: a watch spends watch.rate, not a budget per run: remove budget',
			"pipeline.json:4:75: /stages/0/hostBudget: a watch spends watch.rate, not a budget per run (an origin's own pace is watch.hostRate): remove hostBudget",
			"pipeline.json:4:112: /stages/1/rate: in a watch, an origin's request rate is watch.hostRate (watch.rate is the checks over every origin): move it there",
			'pipeline.json:4:123: /stages/1/localWorkers: a watch sends its requests from the main thread: remove localWorkers',
			'pipeline.json:4:144: /stages/2: a watch has no churn guard: no run ends to release what it would hold back; remove the stage',
			'pipeline.json:4:170: /stages/3: a watch checks URLs, it does not crawl: remove the fetch stage',
			'pipeline.json:5:13: /sinks/0: a dir sink keeps the bodies a fetch stage downloads, and a watch has none: use a warc sink to keep what the checks read',
		]);
	});

	it('names a single source by /source, and a --set that made a problem', () => {
		expect(problems(`{ "mode": "watch", "source": { "type": "command", "command": "cat urls" }, ${stdout} }`)).toEqual([
			'pipeline.json:1:30: /source: a watch reads its sources again and again, and a command source is read once: ' +
				'write its URLs to a file source (read again when it changes), or pipe them in on stdin',
		]);
		expect(problems(`{ ${urls}, ${stdout} }`, ['mode=watch', 'watch.rate=20/s', 'watch.until=soon', 'stages.churn-guard.maxChurn=0.5'])).toEqual([
			'--set watch.until=soon: /watch/until: must be a time in ISO 8601, or a duration from the start such as 12h or 30d (got "soon")',
		]);
		expect(problems(`{ ${urls}, ${stdout} }`, ['mode=watch', 'watch.rate=20/s', 'stages.churn-guard.maxChurn=0.5'])).toEqual([
			'--set stages.churn-guard.maxChurn=0.5: /stages/0: a watch has no churn guard: no run ends to release what it would hold back; remove the stage',
		]);
	});
});
