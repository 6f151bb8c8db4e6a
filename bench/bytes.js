// Bytes a second sweep costs against the first: `npm run build && node bench/bytes.js [--pages N]`.
//
// Starts bench/origin.js (20,000 pages of ~4 KB with strong ETags) in its own process,
// runs two sweeps through the real CLI on a fresh store, and reads each run's figures
// from `revisit history --json`: body bytes received, and the body bytes a full
// download would have cost. It also asks the origin how many body bytes it sent. Prints
// a markdown table for bench/RESULTS.md.
import { execFileSync, fork, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, '..', 'bin', 'revisit.js');
const pagesArg = process.argv.indexOf('--pages');
const pages = pagesArg === -1 ? 20_000 : Number(process.argv[pagesArg + 1]);

const origin = fork(path.join(here, 'origin.js'), [String(pages)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
const message = (type) =>
	new Promise((resolve) => {
		const listener = (reply) => {
			if (reply.type === type) {
				origin.off('message', listener);
				resolve(reply);
			}
		};
		origin.on('message', listener);
	});
const { port } = await message('ready');
const store = await mkdtemp(path.join(tmpdir(), 'revisit-bytes-'));
const urls = Array.from({ length: pages }, (_, n) => `http://127.0.0.1:${port}/p/${n}`).join('\n') + '\n';

const sweep = () =>
	new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [bin, 'sweep', '--store', store, '-q', '--concurrency', '24', '--per-host', '24'], {
			stdio: ['pipe', 'ignore', 'inherit'],
		});
		child.on('error', reject);
		child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`sweep exited ${code}`))));
		child.stdin.end(urls);
	});
const originBytes = async () => {
	origin.send({ type: 'stats' });
	return (await message('stats')).bytes;
};

try {
	const sent = [];
	for (let run = 0; run < 2; run++) {
		const before = await originBytes();
		await sweep();
		sent.push((await originBytes()) - before);
	}
	const history = execFileSync(process.execPath, [bin, 'history', '--json', '--store', store], { encoding: 'utf8' })
		.trim()
		.split('\n')
		.map((line) => JSON.parse(line));
	const [first, second] = history;
	const pct = (part, whole) => `${((100 * part) / whole).toFixed(3)}%`;
	console.log(`| sweep | URLs | changed | 304s | body bytes received | full download would cost | origin body bytes sent |`);
	console.log(`|---|---:|---:|---:|---:|---:|---:|`);
	for (const [name, row, bytesSent] of [
		['first', first, sent[0]],
		['second', second, sent[1]],
	]) {
		console.log(
			`| ${name} | ${row.urls} | ${row.changed} | ${row.notModified} | ${row.bytes.toLocaleString('en')} | ${row.fullBytes.toLocaleString('en')} | ` +
				`${bytesSent?.toLocaleString('en') ?? 'n/a'} |`,
		);
	}
	console.log(
		`\nSecond sweep: ${pct(second.bytes, first.bytes)} of the first sweep's body bytes as counted by revisit (304s only), ` +
			`${pct(sent[1], sent[0])} as sent by the origin (which also counts the unconditional audit re-fetches, --audit 0.02).`,
	);
} finally {
	origin.send({ type: 'close' });
	origin.disconnect();
	await rm(store, { recursive: true, force: true });
}
