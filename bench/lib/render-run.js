// What bench/render.js runs and asks: a timed child process with its memory polled, and the
// forked SPA origin's counters.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { openSync, closeSync } from 'node:fs';
import path from 'node:path';
import { pollRss } from './poll-rss.js';
import { pollTreeRss } from './poll-tree-rss.js';

/**
 * Runs `node SCRIPT ARGS < urlsFile`: wall seconds, stdout lines, the NDJSON rows among them,
 * the exit status, and the peaks of its own memory (`rss`, from poll-rss.js) and of its
 * descendants' (`tree`: the browser). Exit 3 (the churn guard held a host back) is an answer.
 *
 * @example
 * const run = await timed(urlsFile, CLI, ['sweep', '--store', dir]); run.seconds
 */
export async function timed(urlsFile, script, args) {
	const stdin = openSync(urlsFile, 'r');
	const started = process.hrtime.bigint();
	const child = spawn(process.execPath, [script, ...args], { stdio: [stdin, 'pipe', 'pipe'] });
	closeSync(stdin);
	const rss = pollRss(child.pid);
	const tree = pollTreeRss(child.pid);
	const out = [];
	const err = [];
	child.stdout.on('data', (chunk) => out.push(chunk));
	child.stderr.on('data', (chunk) => err.push(chunk));
	const [status] = await once(child, 'close');
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	rss.stop();
	tree.stop();
	const stderr = Buffer.concat(err).toString().trim();
	if (status !== 0 && status !== 3) throw new Error(`${path.basename(script)} ${args.join(' ')}: exit ${status}: ${stderr}`);
	const lines = Buffer.concat(out).toString().split('\n').filter(Boolean);
	const rows = lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
	return { seconds, lines, rows, status, stderr, rss: rss.peaks, tree: tree.peaks };
}

/**
 * Sends `message` to the forked origin and resolves with its answer of type `answer`.
 *
 * @example
 * const stats = await ask(origin, { type: 'stats' }, 'stats');
 */
export function ask(origin, message, answer = message.type) {
	return new Promise((resolve) => {
		const listen = (reply) => {
			if (reply?.type !== answer) return;
			origin.off('message', listen);
			resolve(reply);
		};
		origin.on('message', listen);
		origin.send(message);
	});
}

/** The origin's counters between two `stats` answers: requests per "kind status", bytes each way. */
export function statsDelta(before, after) {
	const requests = {};
	for (const [key, count] of Object.entries(after.requests)) {
		const delta = count - (before.requests[key] ?? 0);
		if (delta > 0) requests[key] = delta;
	}
	return {
		requests,
		total: Object.values(requests).reduce((a, b) => a + b, 0),
		bytesOut: after.bytesOut - before.bytesOut,
		bytesIn: after.bytesIn - before.bytesIn,
	};
}
