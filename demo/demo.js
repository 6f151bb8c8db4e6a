// revisit demo: sweeps a local site three times through the real CLI and shows what
// conditional requests buy. Runs offline (127.0.0.1 only) in a few seconds, and exits
// non-zero when the CLI's answers are wrong, so it doubles as a smoke test.
//
//   npm run demo            (builds dist/, then runs this file)
//   node demo/demo.js       (uses the dist/ already built)

import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// The CLI's own formatter (npm run demo builds dist/ first), so the figures compare with its summary line.
import { formatBytes } from '../dist/pipelines/summary.js';
import { KIND_LABEL, KINDS, startSite } from './site.js';

const BIN = fileURLToPath(new URL('../bin/revisit.js', import.meta.url));
const PAGES = 300;
/** Pages edited before run 3: two of each kind. */
const EDITS = ['/etag/007.html', '/etag/058.html', '/lastmod/013.html', '/lastmod/071.html', '/plain/029.html', '/plain/090.html'];
const CLI_TIMEOUT_MS = 60_000;
/** `--verbose` / `-v`: also print the CLI's own stderr summary line after each run. */
const VERBOSE = process.argv.includes('--verbose') || process.argv.includes('-v');
const INDENT = ' '.repeat(7);

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
const dim = paint('2');
const bold = paint('1');
const green = paint('32');
const red = paint('31');

/** Runs `revisit sweep --ndjson --all` as a child process with the URLs on stdin. */
function sweep(urls, store) {
	const args = [BIN, 'sweep', '--ndjson', '--all', '--store', store];
	return new Promise((resolve, reject) => {
		const started = performance.now();
		const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
		const out = [];
		const err = [];
		child.stdout.on('data', (chunk) => out.push(chunk));
		child.stderr.on('data', (chunk) => err.push(chunk));
		const timer = setTimeout(() => child.kill('SIGKILL'), CLI_TIMEOUT_MS);
		child.on('error', reject);
		child.on('close', (status, signal) => {
			clearTimeout(timer);
			const stdout = Buffer.concat(out).toString();
			const stderr = Buffer.concat(err).toString();
			const verdicts = [];
			const garbage = [];
			for (const line of stdout.split('\n')) {
				if (line.trim() === '') continue;
				try {
					verdicts.push(JSON.parse(line));
				} catch {
					garbage.push(line);
				}
			}
			resolve({ status, signal, stdout, stderr, verdicts, garbage, ms: performance.now() - started });
		});
		child.stdin.on('error', () => {}); // the CLI may exit before reading everything; status tells
		child.stdin.end(`${urls.join('\n')}\n`);
	});
}

/** Parses the CLI's own stderr summary line, if it has the documented shape. */
function parseSummary(stderr) {
	const line = stderr.split('\n').reverse().find((l) => /^revisit: \d+ URLs, /.test(l));
	if (!line) return undefined;
	const m = line.match(/^revisit: (\d+) URLs, (\d+) changed, (\d+) 304s, (\d+) same-hash, (\d+) errors.*, (\S+ [KMGT]?B) received \((\S+ [KMGT]?B) saved\)/);
	if (!m) return { line };
	return { line, urls: +m[1], changed: +m[2], notModified: +m[3], sameHash: +m[4], errors: +m[5], received: m[6], saved: m[7] };
}

const kindOf = (url) => new URL(url).pathname.split('/')[1];
const pathOf = (url) => new URL(url).pathname;
const short = (value, n = 10) => (value && value.length > n + 1 ? `${value.slice(0, n)}…` : (value ?? '-'));

async function main() {
	const site = await startSite({ pages: PAGES });
	const store = await mkdtemp(path.join(tmpdir(), 'revisit-demo-'));
	/** Problems found; any makes the exit status 1. */
	const failures = [];
	/** url → body bytes of its last full download, to reckon what a later 304 saved. */
	const lastFull = new Map();
	/** url → last verdict, to show what changed. */
	const previous = new Map();

	try {
		const urls = site.urls;
		const perKind = KINDS.map((kind) => `${urls.filter((u) => kindOf(u) === kind).length} ${KIND_LABEL[kind]}`).join(' · ');
		console.log(`${bold('revisit demo')}  ${urls.length} pages at ${site.origin}  ${dim(`(${perKind})`)}`);
		console.log(dim(`each run: node bin/revisit.js sweep --ndjson --all --store ${store} < ${urls.length} URLs`));
		console.log();
		const header = `${'run'.padEnd(22)}${'reported'.padEnd(14)}${'304s'.padStart(5)}${'same-hash'.padStart(11)}${'received'.padStart(11)}${'saved'.padStart(11)}${'time'.padStart(7)}`;
		console.log(dim(header));

		const run = async (number, label, check) => {
			const result = await sweep(urls, store);
			const { verdicts } = result;
			const count = (reason) => verdicts.filter((v) => v.reason === reason).length;
			const changed = verdicts.filter((v) => v.changed);
			let received = 0;
			let saved = 0;
			for (const v of verdicts) {
				received += v.bytes ?? 0;
				if (v.reason === '304') saved += Math.max(0, (lastFull.get(v.url) ?? 0) - (v.bytes ?? 0));
			}

			const byReason = new Map();
			for (const v of changed) byReason.set(v.reason, (byReason.get(v.reason) ?? 0) + 1);
			const reported = changed.length === 0 ? 'nothing' : changed.length === byReason.get('new') ? `${changed.length} new` : `${changed.length} changed`;
			const row =
				`${`run ${number}  ${label}`.padEnd(22)}${reported.padEnd(14)}${String(count('304')).padStart(5)}${String(count('same-hash')).padStart(11)}` +
				`${formatBytes(received).padStart(11)}${formatBytes(saved).padStart(11)}${`${(result.ms / 1000).toFixed(1)}s`.padStart(7)}`;
			console.log(row);

			// What was reported: a breakdown when many, every URL when few.
			if (changed.length > 12) {
				const parts = [...byReason].map(([reason, n]) => `${n} ${reason}`).join(', ');
				const kinds = KINDS.map((kind) => `${changed.filter((v) => kindOf(v.url) === kind).length} ${KIND_LABEL[kind]}`).join(', ');
				console.log(dim(`${INDENT}${parts}: ${kinds}`));
			} else {
				for (const v of changed) console.log(`${INDENT}${v.reason.padEnd(10)}${pathOf(v.url).padEnd(19)}${dim(describeChange(previous.get(v.url), v))}`);
			}

			// Anything the CLI said on stderr besides its summary, and the summary itself.
			const summary = parseSummary(result.stderr);
			const noise = result.stderr.split('\n').filter((line) => line.trim() !== '' && line !== summary?.line);
			for (const line of noise.slice(0, 5)) console.log(`${INDENT}${red('stderr:')} ${line}`);
			if (noise.length > 5) console.log(`${INDENT}${red('stderr:')} … ${noise.length - 5} more lines`);
			if (summary && VERBOSE) console.log(dim(`${INDENT}cli: ${summary.line}`));

			// Sanity of the run itself.
			const problems = [];
			if (result.signal) problems.push(`CLI killed by ${result.signal}`);
			else if (result.status !== 0) problems.push(`CLI exit status ${result.status}`);
			if (result.garbage.length > 0) problems.push(`${result.garbage.length} non-JSON stdout lines`);
			const seen = new Set(verdicts.map((v) => v.url));
			if (verdicts.length !== urls.length || seen.size !== urls.length || urls.some((u) => !seen.has(u))) {
				problems.push(`expected one verdict per URL (${urls.length}), got ${verdicts.length} for ${seen.size} URLs`);
			}
			if (count('error') > 0) problems.push(`${count('error')} error verdicts`);
			if (!summary) problems.push('no summary line on stderr');
			else if (summary.urls !== undefined) {
				const mine = { urls: verdicts.length, changed: changed.length, notModified: count('304'), sameHash: count('same-hash'), received: formatBytes(received), saved: formatBytes(saved) };
				const off = Object.entries(mine).filter(([k, v]) => summary[k] !== v).map(([k, v]) => `${k} ${summary[k]} (verdicts say ${v})`);
				if (off.length > 0) problems.push(`summary line disagrees with the verdicts: ${off.join(', ')}`);
			}
			problems.push(...check({ verdicts, changed, count }));
			for (const problem of problems) console.log(`${INDENT}${red('✗')} ${problem}`);
			failures.push(...problems.map((p) => `run ${number}: ${p}`));

			for (const v of verdicts) {
				if (v.status >= 200 && v.status < 300) lastFull.set(v.url, v.bytes ?? 0);
				previous.set(v.url, v);
			}
			return { changed };
		};

		// 1. Empty store: everything is new.
		await run(1, 'empty store', ({ verdicts }) =>
			verdicts.every((v) => v.reason === 'new') ? [] : [`expected every URL new, got ${tally(verdicts)}`],
		);

		// 2. Nothing edited: validated pages answer 304, the rest hash the same.
		const third = urls.length / KINDS.length;
		await run(2, 'no edits', ({ changed, count }) => {
			const out = [];
			if (changed.length > 0) out.push(`expected nothing changed, got ${changed.length}`);
			if (count('304') !== 2 * third || count('same-hash') !== third) out.push(`expected ${2 * third} 304s and ${third} same-hash, got ${count('304')} and ${count('same-hash')}`);
			return out;
		});

		// 3. Edit a few pages of each kind, then sweep: exactly those should be reported.
		for (const p of EDITS) site.edit(p);
		console.log(`${'edit'.padEnd(7)}${EDITS.length} pages: ${dim(EDITS.join(' '))}`);
		const edited = new Set(EDITS.map((p) => site.url(p)));
		const third3 = await run(3, `${EDITS.length} edited`, ({ verdicts }) => {
			const wrong = verdicts.filter((v) => (edited.has(v.url) ? v.reason !== 'new-body' : v.changed || v.reason === 'error'));
			return wrong.map((v) => `${pathOf(v.url)}: ${v.reason} (expected ${edited.has(v.url) ? 'new-body' : 'unchanged'})`);
		});

		const reported = new Set(third3.changed.map((v) => v.url));
		const exact = reported.size === edited.size && [...edited].every((u) => reported.has(u));
		console.log();
		if (exact && failures.length === 0) {
			console.log(`${green('check ✓')} run 3 reported exactly the ${edited.size} edited pages; runs 1–2 as expected`);
		} else {
			const missed = [...edited].filter((u) => !reported.has(u)).map(pathOf);
			const extra = [...reported].filter((u) => !edited.has(u)).map(pathOf);
			const parts = [
				exact ? `run 3 reported exactly the ${edited.size} edited pages` : `run 3 reported ${reported.size} pages, ${edited.size} were edited`,
				...(missed.length ? [`missed ${missed.join(' ')}`] : []),
				...(extra.length ? [`extra ${extra.join(' ')}`] : []),
				...(failures.length ? [`${failures.length} problem${failures.length === 1 ? '' : 's'} marked ✗ above`] : []),
			];
			console.log(`${red('check ✗')} ${parts.join('; ')}`);
			process.exitCode = 1;
		}
	} finally {
		await site.close();
		await rm(store, { recursive: true, force: true });
	}
}

/** One short phrase for what moved between two verdicts of the same URL. */
function describeChange(before, after) {
	if (!before) return '';
	if (before.etag !== after.etag) return `ETag ${before.etag} → ${after.etag}`;
	if (before.lastModified !== after.lastModified) return `Last-Modified ${before.lastModified} → ${after.lastModified}`;
	if (before.hash !== after.hash) return `body hash ${short(before.hash, 8)} → ${short(after.hash, 8)}`;
	return '';
}

function tally(verdicts) {
	const counts = new Map();
	for (const v of verdicts) counts.set(v.reason, (counts.get(v.reason) ?? 0) + 1);
	return [...counts].map(([reason, n]) => `${n} ${reason}`).join(', ');
}

main().catch((error) => {
	console.error(`demo: ${error?.stack ?? error}`);
	process.exitCode = 1;
});
