// revisit prune benchmark: `npm run build && node bench/prune.js [--records N] [--cli]`.
//
// Fills a fresh LevelDB store (a temporary directory) with N URL records (default
// 1,000,000) on 1,000 hosts, written in batches of 10,000, plus one host row per host.
// Half the records are backdated 40 days: hosts 0-99 all fresh, hosts 900-999 all old
// (so 100 hosts become orphans), the 800 in between alternate old/fresh key by key (the
// worst case for LevelDB: tombstones spread through the whole key space). Then it times:
//   dry run   pruneStore(store, { dryRun: true })        a full scan, nothing written
//   prune     pruneStore(store, {})                       1,000 deletes per batch
// in-process against dist/, and with --cli also the real command in a child process on a
// second, identical store: node bin/revisit.js prune --older-than 30d --store DIR.
// Prints a Markdown table; records/s = records scanned per second.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { LevelStore } from '../dist/index.js';
import { newHostRecord } from '../dist/net/hosts/record.js';
import { pruneStore } from '../dist/store/prune.js';

const { values } = parseArgs({ options: { records: { type: 'string', default: '1000000' }, cli: { type: 'boolean', default: false } } });
const RECORDS = Number(values.records);
const HOSTS = 1000;
const DAY = 86_400_000;
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;

async function fill(dir) {
	const store = await LevelStore.open(dir);
	const now = Date.now();
	const perHost = Math.ceil(RECORDS / HOSTS);
	let ops = [];
	let old = 0;
	const started = process.hrtime.bigint();
	for (let i = 0; i < RECORDS; i++) {
		const host = Math.floor(i / perHost);
		const stale = host >= 900 ? true : host < 100 ? false : i % 2 === 0;
		if (stale) old++;
		const key = `https://host${String(host).padStart(4, '0')}.example/page/${String(i).padStart(7, '0')}`;
		ops.push({
			type: 'put',
			key,
			value: { v: 1, status: 200, etag: `"${i.toString(36)}"`, hash: 'f'.repeat(32), size: 12_345, lastChecked: stale ? now - 40 * DAY : now - DAY },
		});
		if (ops.length === 10_000) {
			await store.batch(ops);
			ops = [];
		}
	}
	for (let h = 0; h < HOSTS; h++) ops.push({ type: 'putHost', key: `https://host${String(h).padStart(4, '0')}.example`, value: newHostRecord(now) });
	await store.batch(ops);
	const fillSeconds = seconds(started);
	await store.close();
	return { old, fillSeconds };
}

const rows = [];
let cliPeakMb;
const tmp = await mkdtemp(path.join(os.tmpdir(), 'revisit-prune-bench-'));
try {
	const dir = path.join(tmp, 'store');
	const { old, fillSeconds } = await fill(dir);
	rows.push(['fill (put, 10,000 per batch)', RECORDS, RECORDS, fillSeconds]);
	const store = await LevelStore.open(dir);
	const now = Date.now();
	let started = process.hrtime.bigint();
	const dry = await pruneStore(store, { before: now - 30 * DAY, now, dryRun: true });
	rows.push(['prune --dry-run (scan only)', RECORDS, dry.urls, seconds(started)]);
	started = process.hrtime.bigint();
	const real = await pruneStore(store, { before: now - 30 * DAY, now });
	rows.push(['prune (1,000 deletes per batch)', RECORDS, real.urls, seconds(started)]);
	started = process.hrtime.bigint();
	const after = await pruneStore(store, { before: now - 30 * DAY, now, dryRun: true });
	rows.push(['scan after prune', RECORDS - real.urls, 0, seconds(started)]);
	await store.close();
	if (real.urls !== old || after.urls !== 0 || after.keptUrls !== RECORDS - old || real.hosts !== 100) {
		throw new Error(`unexpected counts: ${JSON.stringify({ old, dry, real, after })}`);
	}
	if (values.cli) {
		const cliDir = path.join(tmp, 'cli-store');
		await fill(cliDir);
		started = process.hrtime.bigint();
		// The child reports its own peak RSS (getrusage) on stderr as it exits.
		const peak = `data:text/javascript,process.on('exit',()=>process.stderr.write('peak-rss-kb '+process.resourceUsage().maxRSS+'\\n'))`;
		const child = spawnSync(process.execPath, ['--import', peak, path.join(root, 'bin/revisit.js'), 'prune', '--older-than', '30d', '--store', cliDir], {
			encoding: 'utf8',
		});
		const took = seconds(started);
		if (child.status !== 0) throw new Error(`revisit prune exited ${child.status}: ${child.stderr}`);
		process.stderr.write(child.stderr.replace(/^peak-rss-kb .*\n/m, ''));
		cliPeakMb = Number(/peak-rss-kb (\d+)/.exec(child.stderr)?.[1] ?? NaN) / 1024;
		rows.push(['`revisit prune --older-than 30d` (child process)', RECORDS, old, took]);
	}
	const maxRss = process.resourceUsage().maxRSS / 1024;
	console.log(
		`node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${os.platform()} ${os.release()}; ${HOSTS} hosts; ` +
			`peak RSS ${maxRss.toFixed(0)} MB (bench process)\n`,
	);
	console.log('| step | records scanned | records deleted | seconds | records/s |');
	console.log('|---|---:|---:|---:|---:|');
	for (const [step, scanned, deleted, secs] of rows) {
		console.log(
			`| ${step} | ${scanned.toLocaleString('en-US')} | ${deleted.toLocaleString('en-US')} | ${secs.toFixed(2)} | ` +
				`${Math.round(scanned / secs).toLocaleString('en-US')} |`,
		);
	}
	console.log(`\nhosts: ${real.hosts} orphaned host rows deleted, ${real.keptHosts} kept`);
	if (cliPeakMb !== undefined) console.log(`revisit prune child process: peak RSS ${cliPeakMb.toFixed(0)} MB`);
} finally {
	await rm(tmp, { recursive: true, force: true });
}
