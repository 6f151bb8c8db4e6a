// Baseline for bench/run.js: the simplest reasonable "conditional GET sweep" with got 14.
//
//   node bench/got-loop.js --concurrency 24 --etags FILE [--lean] < urls.txt > changed.txt
//
// Reads every URL from stdin, then runs N async workers over the list on one keep-alive
// agent. When FILE exists (second pass) it is loaded into an in-memory Map url -> ETag and
// each GET sends If-None-Match; otherwise (first pass) GETs are unconditional. After the
// pass, the ETags seen are written to FILE, so the next pass (a separate process, just as
// the next `revisit sweep` is) can send them. Prints each URL that did not answer 304 on
// stdout, like `revisit sweep` prints changed URLs, and a JSON summary on stderr.
//
// No dedupe, no store, no body hash, no retries: this is the floor revisit is compared to.
// --lean gives it revisit's workaround for got's per-request options literal (after
// `npm run build`), so that revisit can also be compared with a loop that has it.
import fs from 'node:fs';
import http from 'node:http';
import { parseArgs } from 'node:util';
import got from 'got';

const { values } = parseArgs({
	options: {
		concurrency: { type: 'string', default: '24' },
		etags: { type: 'string' },
		// The same workaround revisit's client applies (src/net/http/native-options.ts, from dist/):
		// a got loop that does not pay for got 14's spread literal per request.
		lean: { type: 'boolean', default: false },
	},
});
const concurrency = Number(values.concurrency);
if (!Number.isInteger(concurrency) || concurrency < 1) throw new TypeError(`--concurrency must be a positive integer`);

const urls = fs
	.readFileSync(0, 'utf8')
	.split('\n')
	.map((line) => line.trim())
	.filter((line) => line !== '');
const etags = new Map(values.etags && fs.existsSync(values.etags) ? JSON.parse(fs.readFileSync(values.etags, 'utf8')) : []);
const conditional = etags.size > 0;

const agent = new http.Agent({ keepAlive: true });
const lean = values.lean ? (await import('../dist/net/http/native-options.js')).leanNativeOptions : undefined;
const client = got.extend({
	agent: { http: agent },
	...(lean ? { hooks: { init: [lean] } } : {}),
	retry: { limit: 0 },
	throwHttpErrors: false,
	responseType: 'buffer',
	timeout: { request: 15_000 },
});

const counts = { urls: urls.length, ok: 0, notModified: 0, other: 0, errors: 0 };
const started = performance.now();
let next = 0;

async function worker() {
	while (next < urls.length) {
		const url = urls[next++];
		const etag = etags.get(url);
		try {
			const response = await client.get(url, etag === undefined ? {} : { headers: { 'if-none-match': etag } });
			if (response.statusCode === 304) {
				counts.notModified++;
				continue;
			}
			if (response.statusCode === 200) counts.ok++;
			else counts.other++;
			const newTag = response.headers.etag;
			if (newTag !== undefined) etags.set(url, newTag);
			process.stdout.write(`${url}\n`);
		} catch (error) {
			counts.errors++;
			process.stderr.write(`got-loop: ${url}: ${error.code ?? error.message}\n`);
		}
	}
}

await Promise.all(Array.from({ length: concurrency }, worker));
const ms = performance.now() - started;
agent.destroy();
if (values.etags) fs.writeFileSync(values.etags, JSON.stringify([...etags]));
process.stderr.write(`${JSON.stringify({ ...counts, conditional, ms: Math.round(ms) })}\n`);
process.exitCode = counts.errors > 0 ? 1 : 0;
