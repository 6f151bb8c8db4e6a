// Verification figures (--verify-every): `npm run build && node bench/verify.js [--pages N] [--days N]`.
//
// Daily runs simulated with a fake clock through the library (dist/index.js), against two
// local sites on 127.0.0.1:
//   honest   strong ETags, nothing edited: every full body is an audit or a verification,
//            counted by the server (200s sent to GETs) per run, as a share of the pages;
//   stale    Last-Modified only, redeployed with old timestamps: 10 pages edited after day 1
//            keep their Last-Modified and get 304s; how many days until each is reported.
// Each is run with verification at 30d (the default), 10d and off, at the default 2% audit
// rate, with a seeded random source, so the figures repeat.
import http from 'node:http';
import { parseArgs } from 'node:util';
import { lastValueFrom, toArray } from 'rxjs';
import { MemoryStore, sweep } from '../dist/index.js';
import { mulberry32 } from './lib/prng.js';

const { values } = parseArgs({ options: { pages: { type: 'string', default: '1000' }, days: { type: 'string', default: '60' } } });
const PAGES = Number(values.pages);
const DAYS = Number(values.days);
const DAY = 86_400_000;
const FIXED_LM = new Date(Date.UTC(2024, 0, 1)).toUTCString();

/** One local site; `bodies` counts 200s sent to GETs. */
async function serve(kind) {
	const versions = new Array(PAGES).fill(1);
	const site = { bodies: 0, versions };
	const server = http.createServer((req, res) => {
		const i = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
		if (!(i in versions)) return void res.writeHead(404).end();
		const body = `<html><body><h1>Page ${i}</h1><p>version ${versions[i]}</p></body></html>`;
		if (kind === 'honest') {
			const etag = `"p${i}-v${versions[i]}"`;
			if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
			site.bodies++;
			return void res.writeHead(200, { etag }).end(body);
		}
		if (req.headers['if-modified-since'] === FIXED_LM) return void res.writeHead(304, { 'last-modified': FIXED_LM }).end();
		site.bodies++;
		res.writeHead(200, { 'last-modified': FIXED_LM }).end(body);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	site.urls = versions.map((_, i) => `http://127.0.0.1:${server.address().port}/p/${i}`);
	site.close = () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve)));
	return site;
}

async function simulate(kind, periodDays) {
	const site = await serve(kind);
	const store = new MemoryStore();
	const random = mulberry32(0x5eed + periodDays);
	const shares = [];
	const found = new Map();
	const hidden = new Set();
	try {
		for (let day = 1; day <= DAYS; day++) {
			const before = site.bodies;
			const options = { store, random, clock: { now: () => day * DAY }, trust: { verifyEveryMs: periodDays * DAY }, concurrency: 24, perHost: 8 };
			const verdicts = await lastValueFrom(sweep(site.urls, options).pipe(toArray()));
			if (day > 1) shares.push((site.bodies - before) / PAGES);
			for (const verdict of verdicts) if (verdict.changed && hidden.has(verdict.url) && !found.has(verdict.url)) found.set(verdict.url, day);
			if (kind === 'stale' && day === 1) {
				for (let j = 0; j < 10; j++) {
					const i = (j * 97 + 13) % PAGES;
					site.versions[i]++;
					hidden.add(site.urls[i]);
				}
			}
		}
	} finally {
		await site.close();
	}
	const mean = shares.reduce((sum, share) => sum + share, 0) / shares.length;
	const delays = [...hidden].map((url) => (found.has(url) ? found.get(url) - 1 : Infinity));
	return { mean, max: Math.max(...shares), found: found.size, worst: Math.max(...delays) };
}

const pct = (share) => `${(share * 100).toFixed(1)}%`;
const lines = [
	`${PAGES} pages, ${DAYS} daily runs (fake clock), default --audit 0.02; Node ${process.version}.`,
	'',
	'| --verify-every | honest site: bodies per unchanged run, mean (max) | stale-timestamp site: hidden edits found | longest hidden (days) |',
	'|---|--:|--:|--:|',
];
for (const period of [30, 10, 0]) {
	const honest = await simulate('honest', period);
	const stale = await simulate('stale', period);
	lines.push(
		`| ${period === 0 ? 'off' : `${period}d`} | ${pct(honest.mean)} (${pct(honest.max)}) | ${stale.found} / 10 | ` +
			`${Number.isFinite(stale.worst) ? stale.worst : `> ${DAYS - 1}`} |`,
	);
}
process.stdout.write(`${lines.join('\n')}\n`);
