// Kept-text bench: `npm run build && node bench/text-store.js [--pages N]`
//
// What keeping text for `revisit report` costs on disk, on the LevelDB store. N typical
// pages (default 1,000) are served from 127.0.0.1: each some 12 KB of HTML (a shared
// nav, header and footer, a script and a style, 8 to 30 paragraphs of article text from
// a 2,000-word vocabulary, seeded PRNG), of which one in ten is a copy of another page's
// text (mirrors, print views): the texts pages share are stored once. The built CLI sweeps
// them once into two fresh stores, `--keep-text off` and the defaults; each store is then
// opened and closed once (LevelDB turns its log into a table) and measured with du. Also
// printed: the blobs' count, their text before and after brotli, and the store total
// the run row counts (`textBytes`).
import { spawn } from 'node:child_process';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pageParts } from './lib/edited-pages.js';
import { mulberry32 } from './lib/prng.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = (file) => import(pathToFileURL(path.join(root, 'dist', file)).href);
const { LevelStore } = await dist('store/level/store.js');
const arg = (name, fallback) => {
	const i = process.argv.indexOf(`--${name}`);
	return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const pages = arg('pages', 1000);
const random = mulberry32(0x7e47);
const { sentence, nav, footer, head } = pageParts(random);
const articles = [];
const titles = [];
for (let i = 0; i < pages; i++) {
	if (i > 0 && random() < 0.1) {
		const copy = Math.floor(random() * i);
		articles.push(articles[copy]);
		titles.push(titles[copy]);
		continue;
	}
	titles.push(`Page ${i}`);
	const paragraphs = Array.from(
		{ length: 8 + Math.floor(random() * 23) },
		() => `<div class="para-wrap"><p class="para">${Array.from({ length: 2 + Math.floor(random() * 4) }, sentence).join(' ')}</p></div>`,
	);
	articles.push(`<article class="story"><h1 class="headline">${sentence()}</h1><img src="/i/${i}.jpg" alt="${sentence()}">${paragraphs.join('\n')}</article>`);
}
const html = articles.map((article, i) => `<!doctype html><html>${head.replace('TITLE', titles[i])}<body>${nav}<main>${article}</main>${footer}</body></html>`);
const server = http.createServer((req, res) => {
	const body = html[Number(req.url.slice(1))];
	res.setHeader('content-type', 'text/html; charset=utf-8');
	res.end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const urls = html.map((_, i) => `http://127.0.0.1:${server.address().port}/${i}`).join('\n');

const tmp = path.join(root, 'bench/.tmp/text-store');
await rm(tmp, { recursive: true, force: true });
await mkdir(tmp, { recursive: true });
const du = async (dir) => {
	let total = 0;
	for (const name of await readdir(dir)) total += (await stat(path.join(dir, name))).size;
	return total;
};
const results = {};
for (const [label, flags] of [
	['off', ['--keep-text', 'off']],
	['default', []],
]) {
	const dir = path.join(tmp, label);
	// Not spawnSync: the server answering the sweep runs in this process.
	const child = spawn(process.execPath, [path.join(root, 'bin/revisit.js'), 'sweep', '--store', dir, '--robots', 'ignore', '-q', ...flags], {
		stdio: ['pipe', 'ignore', 'inherit'],
	});
	child.stdin.end(urls);
	const status = await new Promise((resolve) => child.on('close', resolve));
	if (status !== 0) throw new Error(`sweep failed (${status})`);
	const store = await LevelStore.open(dir);
	let blobs = 0,
		raw = 0,
		compressed = 0,
		textBytes;
	for await (const [, blob] of store.textEntries()) {
		blobs++;
		raw += blob.bytes;
		compressed += blob.z.length;
	}
	for await (const [, run] of store.runEntries()) textBytes = run.textBytes;
	await store.close();
	results[label] = { disk: await du(dir), blobs, raw, compressed, textBytes };
}
server.close();
const htmlBytes = html.reduce((sum, page) => sum + Buffer.byteLength(page), 0);
const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
const d = results.default;
console.log(`${pages} pages, ${kb(htmlBytes)} of HTML (${(htmlBytes / pages / 1024).toFixed(1)} KiB a page)\n`);
console.log('| store | on disk | text blobs | visible text | compressed | run row textBytes |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const [label, r] of Object.entries(results))
	console.log(
		`| --keep-text ${label} | ${kb(r.disk)} | ${r.blobs} | ${kb(r.raw)} | ${kb(r.compressed)} | ${r.textBytes === undefined ? '-' : kb(r.textBytes)} |`,
	);
console.log(
	`\nkept text costs ${kb(d.disk - results.off.disk)} on disk for ${pages} pages: ${((d.disk - results.off.disk) / pages / 1024).toFixed(2)} KiB a page;` +
		` 100,000 such pages: ` +
		((((d.disk - results.off.disk) / pages) * 100_000) / 1024 / 1024).toFixed(0) +
		` MiB`,
);
