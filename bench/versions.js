// Versions bench: `npm run build && node bench/versions.js [--pages 1000] [--changes 30] [--seed 1]`
//
// What keeping every version of a page's text costs (`--keep-versions`, default 50)
// against keeping the latest alone (`--keep-versions off`), through the built CLI at its
// defaults (but --accept-churn all: every page changes every round, which the churn
// guard would hold back). N pages (default 1,000) of some 12 KB of HTML are served from 127.0.0.1
// (bench/lib/edited-pages.js); each round every page gets one small edit (a sentence
// rewritten, the price or the date moved) and the CLI sweeps them into two stores side
// by side, the defaults and `--keep-versions off`: 1 + 30 sweeps, 31 versions a page.
// Measured on each store, once the texts nothing points to are collected (as `revisit
// prune` does): the bytes --keep-text-total counts (text blobs and version logs), and the
// directory with du after LevelDB has turned its log into tables. Checked: every page has its 31 versions, and of 20 pages each version's
// text is the one the store held as latest after its sweep, exactly. Then the bound:
// 10 pages changed 60 times keep 50 versions, numbered 11 to 61, the latest among them.
import { spawn } from 'node:child_process';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { editedPages } from './lib/edited-pages.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = (file) => import(pathToFileURL(path.join(root, 'dist', file)).href);
const { LevelStore } = await dist('store/level/store.js');
const { unpackText } = await dist('store/model/text-blob.js');
const { pageVersions, versionText } = await dist('domain/versions/index.js');
const { collectTexts } = await dist('store/text-gc.js');
const arg = (name, fallback) => {
	const i = process.argv.indexOf(`--${name}`);
	return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const count = arg('pages', 1000);
const changes = arg('changes', 30);
const seed = arg('seed', 1);

const tmp = path.join(root, `bench/.tmp/versions-${seed}`);
await rm(tmp, { recursive: true, force: true });
await mkdir(tmp, { recursive: true });

/** Serves `site` on 127.0.0.1; robots.txt is a 404 (everything allowed), as on most sites. */
async function serve(site) {
	const server = http.createServer((req, res) => {
		const i = Number(req.url.slice(1));
		if (!Number.isInteger(i) || i < 0 || i >= site.count) return void res.writeHead(404).end();
		res.setHeader('content-type', 'text/html; charset=utf-8');
		res.end(site.html(i));
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { server, urls: Array.from({ length: site.count }, (_, i) => `http://127.0.0.1:${server.address().port}/${i}`) };
}

async function sweep(dir, urls, flags = []) {
	// Not spawnSync: the server answering the sweep runs in this process.
	// --accept-churn: every page of the origin changes each round, which the churn guard would rightly hold back; it changes nothing of what is kept.
	const child = spawn(process.execPath, [path.join(root, 'bin/revisit.js'), 'sweep', '--store', dir, '-q', '--accept-churn', 'all', ...flags], {
		stdio: ['pipe', 'ignore', 'inherit'],
	});
	child.stdin.end(urls.join('\n'));
	const status = await new Promise((resolve) => child.on('close', resolve));
	if (status !== 0) throw new Error(`sweep failed (${status})`);
}

const withStore = async (dir, use) => {
	const store = await LevelStore.open(dir);
	try {
		return await use(store);
	} finally {
		await store.close();
	}
};

const du = async (dir) => {
	let total = 0;
	for (const name of await readdir(dir)) total += (await stat(path.join(dir, name))).size;
	return total;
};

/**
 * What the store keeps of text once the texts nothing points to any more are collected
 * (as `revisit prune` does; a sweep leaves them until the total passes its bound): blobs
 * and logs, as --keep-text-total counts them (64 bytes a head).
 */
const measure = (dir) =>
	withStore(dir, async (store) => {
		const { bytes: textBytes } = await collectTexts(store, { maxBytes: Infinity });
		let blobs = 0,
			blobBytes = 0,
			logs = 0,
			logBytes = 0,
			versions = 0;
		for await (const [, blob] of store.textEntries()) blobs++, (blobBytes += blob.z.length + 64);
		for await (const [, log] of store.versionEntries()) logs++, (logBytes += log.z.length + 64), (versions += log.count);
		return { blobs, blobBytes, logs, logBytes, versions, textBytes };
	});

const site = editedPages(count, seed);
const { server, urls } = await serve(site);
const stores = { versions: path.join(tmp, 'versions'), latest: path.join(tmp, 'latest') };
const sample = urls.slice(0, 20);
const seen = sample.map(() => []);
const started = Date.now();
for (let round = 0; round <= changes; round++) {
	if (round > 0) for (let i = 0; i < count; i++) site.edit(i);
	await sweep(stores.versions, urls);
	await sweep(stores.latest, urls, ['--keep-versions', 'off']);
	await withStore(stores.versions, async (store) => {
		const records = await store.getMany(sample);
		const blobs = await store.getTexts(records.map((record) => record.text.hash));
		blobs.forEach((blob, i) => seen[i].push(unpackText(blob)));
	});
}
const sweptIn = (Date.now() - started) / 1000;
server.close();

// Exact: each sample page's every version against the text the store held as latest after that sweep.
let exact = 0,
	wrong = 0,
	counts = new Map();
await withStore(stores.versions, async (store) => {
	for (const url of urls) {
		const n = (await pageVersions(store, url)).length;
		counts.set(n, (counts.get(n) ?? 0) + 1);
	}
	for (const [i, url] of sample.entries()) {
		for (const [k, text] of seen[i].entries()) (await versionText(store, url, k + 1)) === text ? exact++ : wrong++;
	}
});
const figures = { versions: await measure(stores.versions), latest: await measure(stores.latest) };
// Opened and closed once more after the collection: LevelDB turns its log into tables.
await withStore(stores.versions, async () => {});
await withStore(stores.latest, async () => {});
const disk = { versions: await du(stores.versions), latest: await du(stores.latest) };

// The bound: 10 pages changed 60 times (61 versions seen), at the default --keep-versions.
const bounded = editedPages(10, seed + 1000);
const small = await serve(bounded);
const boundDir = path.join(tmp, 'bound');
for (let round = 0; round <= 60; round++) {
	if (round > 0) for (let i = 0; i < bounded.count; i++) bounded.edit(i);
	await sweep(boundDir, small.urls);
}
small.server.close();
const bound = await withStore(boundDir, async (store) => {
	const out = [];
	for (const url of small.urls) {
		const versions = await pageVersions(store, url);
		const [record] = await store.getMany([url]);
		const [blob] = await store.getTexts([record.text.hash]);
		const latest = await versionText(store, url, versions[0].n);
		out.push({
			kept: versions.length,
			newest: versions[0].n,
			oldest: versions.at(-1).n,
			latestExact: latest === unpackText(blob),
			oldestReadable: (await versionText(store, url, versions.at(-1).n)) !== undefined,
		});
	}
	return out;
});

const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
const { versions: v, latest: l } = figures;
console.log(
	`seed ${seed}: ${count} pages, ${changes} changes each (${changes + 1} versions), ` +
		(Array.from({ length: count }, (_, i) => Buffer.byteLength(site.html(i))).reduce((a, b) => a + b, 0) / count / 1024).toFixed(1) +
		` KiB of HTML a page; ${(sweptIn / 60).toFixed(1)} min for the ${2 * (changes + 1)} sweeps\n`,
);
console.log('| store | versions kept | text blobs | version logs | kept text in all | on disk (du) |');
console.log('|---|---:|---:|---:|---:|---:|');
console.log(
	`| defaults (--keep-versions 50) | ${v.versions} | ${kb(v.blobBytes)} (${v.blobs}) | ${kb(v.logBytes)} (${v.logs}) | ${kb(v.textBytes)} | ` +
		`${kb(disk.versions)} |`,
);
console.log(
	`| --keep-versions off | ${l.versions} | ${kb(l.blobBytes)} (${l.blobs}) | ${kb(l.logBytes)} (${l.logs}) | ${kb(l.textBytes)} | ${kb(disk.latest)} |`,
);
console.log(
	`\nall ${changes + 1} versions against the latest alone: ${(v.textBytes / l.textBytes).toFixed(2)}x the kept text (target <= 2x), ` +
		`${(disk.versions / disk.latest).toFixed(2)}x on disk; ${((v.textBytes - l.textBytes) / count / changes).toFixed(0)} bytes an older version`,
);
console.log(
	`versions a page: ` +
		[...counts].map(([n, pages]) => `${pages} pages with ${n}`).join(', ') +
		`; texts of ${sample.length} pages given back exactly: ${exact} of ${exact + wrong}`,
);
console.log(
	`bound: ` +
		bound
			.map((b) => `${b.kept} kept (${b.oldest}..${b.newest})${b.latestExact ? '' : ' LATEST WRONG'}${b.oldestReadable ? '' : ' OLDEST UNREADABLE'}`)
			.join('; '),
);
