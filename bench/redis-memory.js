// Redis memory per stored URL: `npm run build && node bench/redis-memory.js [--records N]`.
//
// Starts its own redis-server (127.0.0.1, a free port, no persistence, a temp dir),
// writes N synthetic URL records (default 100,000, on 500 hosts, shaped like a sweep's:
// strong ETag, Last-Modified, 128-bit hash, size, encoding, lastChecked, verifiedAt) as
// a `revisit export` dump, and loads it with the real CLI: `revisit import --store
// redis://…`. Reads INFO memory (used_memory) before and after, and reports the
// difference per record; then times `revisit export` (the ordered merge of 16 buckets)
// and, for comparison, the same import into a fresh LevelDB directory and its size on disk.
// Only 127.0.0.1 is contacted.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectRedis } from '../dist/store/redis/link.js';
import { parseRedisUrl } from '../dist/store/redis/url.js';
import { freePort } from './lib/sweep-bench.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bin = path.join(root, 'bin/revisit.js');
const at = process.argv.indexOf('--records');
const records = at > 0 ? Number(process.argv[at + 1]) : 100_000;

const tmp = mkdtempSync(path.join(os.tmpdir(), 'revisit-redis-bench-'));
const port = await freePort();
const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmp], { stdio: 'ignore' });
try {
	const url = `redis://127.0.0.1:${port}/0`;
	await waitFor(url);
	const dump = path.join(tmp, 'dump.ndjson');
	writeFileSync(dump, synthetic(records));

	const before = await usedMemory(url);
	const imported = cli(['import', '--store', url], dump);
	const after = await usedMemory(url);
	const { rec, idx } = await bucketUsage(url);
	const exported = cli(['export', '--store', url], undefined);
	const level = path.join(tmp, 'level');
	const levelImport = cli(['import', '--store', level], dump);
	const levelBytes = du(level);

	const perRecord = (after - before) / records;
	console.log(`records                         ${records.toLocaleString('en')}`);
	console.log(`redis used_memory before        ${before.toLocaleString('en')} B`);
	console.log(`redis used_memory after         ${after.toLocaleString('en')} B`);
	console.log(`per URL record                  ${perRecord.toFixed(0)} B (dump line: ${(statSync(dump).size / records).toFixed(0)} B)`);
	console.log(`  of which record hashes        ${(rec / records).toFixed(0)} B, sorted indexes ${(idx / records).toFixed(0)} B (MEMORY USAGE … SAMPLES 0)`);
	const rate = (run) => `${run.seconds.toFixed(2)} s  ${(records / run.seconds).toFixed(0)} records/s  ${run.rss}`;
	console.log(`revisit import (redis)          ${rate(imported)}`);
	console.log(`revisit export (redis, ordered) ${rate(exported)}`);
	console.log(`revisit import (LevelDB)        ${rate(levelImport)}, ${(levelBytes / records).toFixed(0)} B per record on disk`);
} finally {
	server.kill('SIGTERM');
	rmSync(tmp, { recursive: true, force: true });
}

function synthetic(n) {
	const now = Date.UTC(2026, 11, 1);
	const lines = [JSON.stringify({ kind: 'meta', format: 1, exportedAt: new Date(now).toISOString() })];
	for (let i = 0; i < n; i++) {
		const host = `https://www.site${i % 500}.example.org`;
		const value = {
			v: 1,
			status: 200,
			etag: `"${((i * 2654435761) >>> 0).toString(16)}-5f3a${(i % 9973).toString(16)}"`,
			lastModified: new Date(now - (i % 86_400) * 60_000).toUTCString(),
			hash: (BigInt(i) * 0x9e3779b97f4a7c15n).toString(16).padStart(32, '0').slice(-32),
			size: 20_000 + (i % 50_000),
			encoding: 'gzip',
			lastChecked: now - (i % 3_600) * 1_000,
			verifiedAt: now - (i % 86_400) * 1_000,
		};
		lines.push(JSON.stringify({ kind: 'url', key: `${host}/articles/${2020 + (i % 7)}/${(i % 12) + 1}/story-${i}.html`, value }));
	}
	return `${lines.join('\n')}\n`;
}

/**
 * Runs the CLI with `stdin` from a file; returns seconds from spawn to exit and, under
 * GNU time where it is installed, the child's peak RSS in MiB. Fails on a non-zero status.
 */
function cli(args, stdin) {
	const started = process.hrtime.bigint();
	const timed = existsSync('/usr/bin/time');
	const [command, ...rest] = timed ? ['/usr/bin/time', '-f', 'maxrss=%M', process.execPath, bin, ...args] : [process.execPath, bin, ...args];
	const result = spawnSync(command, rest, { input: stdin === undefined ? '' : readFileSync(stdin), maxBuffer: 1 << 30 });
	if (result.status !== 0) throw new Error(`revisit ${args.join(' ')}: exit ${result.status}: ${result.stderr}`);
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	const rss = /maxrss=(\d+)/.exec(String(result.stderr))?.[1];
	return { seconds, rss: rss === undefined ? 'n/a' : `${(Number(rss) / 1024).toFixed(0)} MiB peak RSS` };
}

async function usedMemory(url) {
	const link = await connectRedis(parseRedisUrl(url));
	try {
		const info = await link.read(['INFO', 'memory']);
		return Number(/used_memory:(\d+)/.exec(info)[1]);
	} finally {
		await link.close();
	}
}

/** MEMORY USAGE of the 16 URL buckets' record hashes and index zsets, summed. */
async function bucketUsage(url) {
	const link = await connectRedis(parseRedisUrl(url));
	try {
		const sum = async (suffix) => {
			let total = 0;
			for (let bucket = 0; bucket < 16; bucket++)
				total += Number(await link.read(['MEMORY', 'USAGE', `revisit:{url.${String(bucket).padStart(2, '0')}}:${suffix}`, 'SAMPLES', '0']));
			return total;
		};
		return { rec: await sum('rec'), idx: await sum('idx') };
	} finally {
		await link.close();
	}
}

async function waitFor(url) {
	for (let i = 0; ; i++) {
		try {
			await usedMemory(url);
			return;
		} catch (error) {
			if (i > 50) throw error;
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	}
}

function du(dir) {
	return readdirSync(dir).reduce((sum, name) => sum + statSync(path.join(dir, name)).size, 0);
}
