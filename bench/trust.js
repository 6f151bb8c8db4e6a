// Per-host trust figures: `npm run build && node bench/trust.js [--pages N] [--edits N]`.
//
// For each server behaviour of bench/trust-fixtures.js (one local server each, 127.0.0.1,
// ephemeral port) and a fresh store, runs the built CLI five times as a user would:
//   node bin/revisit.js sweep --store <tmp> -q [behaviour flags]   (URLs on stdin)
// run 1 finds everything new; before runs 2, 3 and 4 `--edits` pages are edited (the 410
// site deletes two of them instead); run 5 follows no edit: the "unchanged run".
// Trust options are the CLI defaults (--audit 0.02, --method get) unless the row says so.
// Counted from the URLs printed (the changed ones) against the edits made:
//   missed in run  edits not printed by the run right after them
//   never          edits still not printed after run 5
//   false alarms   URLs printed that had no unreported edit
// and from the server: full 200 bodies sent to GETs, and all requests, in the unchanged
// run. The host's mode and reason come from `revisit stats --json` after run 5.
// Random audits (2%) make the lying host's figures vary from run to run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BEHAVIOURS, serveSite } from './trust-fixtures.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'revisit.js');
const { values: flags } = parseArgs({ options: { pages: { type: 'string', default: '100' }, edits: { type: 'string', default: '5' } } });
const PAGES = Number(flags.pages);
const EDITS = Number(flags.edits);
if (!Number.isInteger(PAGES) || PAGES < 10 || !Number.isInteger(EDITS) || EDITS < 1 || EDITS * 3 > PAGES)
	throw new TypeError('--pages >= 10, 1 <= --edits <= pages/3');
if (!fs.existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first');

const SCENARIOS = [
	{ behaviour: 'strong-etag' },
	{ behaviour: 'weak-etag' },
	{ behaviour: 'last-modified' },
	{ behaviour: 'no-validators' },
	{ behaviour: 'no-validators', flags: () => ['--method', 'auto'], note: '--method auto' },
	{ behaviour: 'rotating-etag' },
	{ behaviour: 'last-modified-now' },
	{ behaviour: 'lying-304' },
	{ behaviour: 'lying-304', flags: () => ['--audit', '1'], note: '--audit 1' },
	{ behaviour: 'ignores-conditionals' },
	{ behaviour: 'gzip-etag', flags: (run) => ['--accept-encoding', run <= 2 ? 'gzip' : 'br'], note: 'gzip runs 1-2, br runs 3-5' },
	{ behaviour: 'head-405', flags: () => ['--method', 'auto'], note: '--method auto' },
	{ behaviour: 'head-stale', flags: () => ['--method', 'auto'], note: '--method auto' },
	{ behaviour: 'moved' },
	{ behaviour: 'latin1' },
	{ behaviour: 'busy-503', flags: () => ['--retries', '2'], note: '--retries 2' },
	{ behaviour: 'gone-410' },
	{ behaviour: 'coding-suffix' },
	{ behaviour: 'coding-suffix-no-lm' },
];

/** Runs the built CLI; resolves with its exit status and stdout. */
function cli(args, stdin = '') {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
		child.stdout.on('data', (chunk) => (stdout += chunk));
		child.stderr.on('data', (chunk) => (stderr += chunk));
		child.on('error', reject);
		child.on('close', (status) => {
			clearTimeout(timer);
			resolve({ status, stdout, stderr });
		});
		child.stdin.end(stdin);
	});
}

/** Distinct pages to edit before `run`, spread over the site and never the same twice. */
const pagesFor = (run, count) => Array.from({ length: count }, (_, j) => (7 + 13 * (j * 3 + run)) % PAGES);

async function scenario({ behaviour, flags = () => [], note }) {
	const store = fs.mkdtempSync(path.join(os.tmpdir(), 'revisit-trust-'));
	const site = await serveSite(behaviour, PAGES);
	const pending = new Set();
	const figures = { edits: 0, missedInRun: 0, falseAlarms: 0, bodies: 0, requests: 0, statuses: [] };
	try {
		for (let run = 1; run <= 5; run++) {
			let edited = [];
			if (run >= 2 && run <= 4) {
				const pages = pagesFor(run, EDITS);
				edited = behaviour === 'gone-410' ? [...site.remove(...pages.slice(0, 2)), ...site.edit(...pages.slice(2))] : site.edit(...pages);
			}
			for (const url of edited) pending.add(url);
			figures.edits += edited.length;
			const before = { ...site.counts };
			const result = await cli(['sweep', '--store', store, '-q', ...flags(run)], site.urls.map((url) => `${url}\n`).join(''));
			figures.statuses.push(result.status);
			if (result.status !== 0) process.stderr.write(`${behaviour} run ${run}: exit ${result.status}\n${result.stderr}`);
			const printed = new Set(result.stdout.split('\n').filter(Boolean));
			if (run >= 2) {
				for (const url of printed) if (!pending.has(url)) figures.falseAlarms++;
				for (const url of edited) if (!printed.has(url)) figures.missedInRun++;
			}
			for (const url of printed) pending.delete(url);
			if (run === 1) pending.clear();
			if (run === 5) {
				figures.bodies = site.counts.bodies - before.bodies;
				figures.requests = site.counts.requests - before.requests;
			}
		}
		const stats = await cli(['stats', '--json', '--store', store]);
		const row = stats.stdout
			.split('\n')
			.filter(Boolean)
			.map((line) => JSON.parse(line))
			.find((candidate) => candidate.host === site.origin);
		return { behaviour, note, ...figures, never: pending.size, stats: row };
	} finally {
		await site.close();
		fs.rmSync(store, { recursive: true, force: true });
	}
}

function describeTrust(stats) {
	if (!stats) return '-';
	const off = [stats.etag === 'off' ? 'ETag off' : '', stats.lastModified === 'off' ? 'LM off' : ''].filter(Boolean);
	const method = stats.method === 'head' || stats.methodReason ? `, ${stats.method.toUpperCase()}${stats.methodReason ? ` (${stats.methodReason})` : ''}` : '';
	const form = stats.form && stats.form !== 'both' && stats.form !== 'unmeasured' ? `, form ${stats.form}` : '';
	return `${stats.mode}${off.length ? ` [${off.join(', ')}]` : ''}${method}${form}: ${stats.reason}`;
}

const rows = [];
for (const item of SCENARIOS) {
	process.stderr.write(`trust bench: ${item.behaviour}${item.note ? ` (${item.note})` : ''}\n`);
	rows.push(await scenario(item));
}

const cell = (text) => String(text).replaceAll('|', '\\|');
const lines = [
	`${PAGES} URLs per host, ${EDITS} pages edited before each of runs 2-4 (the 410 host deletes 2 of them), run 5 unchanged; Node ${process.version}, ` +
		`${os.cpus()[0]?.model ?? 'unknown CPU'}.`,
	'',
	'| server behaviour | flags | edits | missed in run | never reported | false alarms ' +
		'| full bodies in unchanged run | requests in unchanged run | host after run 5 |',
	'|---|---|--:|--:|--:|--:|--:|--:|---|',
	...rows.map(
		(r) =>
			`| ${cell(BEHAVIOURS[r.behaviour])} | ${cell(r.note ?? 'defaults')} | ${r.edits} | ${r.missedInRun} | ${r.never} | ${r.falseAlarms} | ${r.bodies} ` +
			`/ ${PAGES} | ${r.requests} | ${cell(describeTrust(r.stats))} |`,
	),
];
const failed = rows.filter((r) => r.statuses.some((status) => status !== 0));
if (failed.length > 0) lines.push('', `Non-zero exits: ${failed.map((r) => `${r.behaviour} ${r.statuses.join(',')}`).join('; ')}`);
process.stdout.write(`${lines.join('\n')}\n`);
