// A watch keeps its rate while every delivery target is down: `node bench/watch-outbox.js`
// (after `npm run build`). Issue 36, part 1, at the default flags.
//
// Two watches run side by side, in one run, on LevelDB stores of their own, every flag at
// its default but --rate (the user's budget), --store, --ndjson, -q and B's targets:
//   revisit watch --store TMP --rate 8/s --ndjson -q
// Each watches --pages new URLs (30,000) on origins of its own (--origins, 1 each) whose
// pages change at every request. New URLs are all due at once, so at 8/s the first pass
// takes about an hour and the whole run falls inside it: the rate binds throughout. A
// check is every request the origins see (robots.txt included, one per origin; pages send
// no validators, so no check is conditional and the default audits of 304s never fire).
// A has no target. B has every target down: --notify json:// and --webhook to ports
// nothing listens on, --notify mailto:// to a port nothing listens on, and --notify
// mailto:// to an SMTP server that accepts and never says a word; and --feed-new, a target
// flag, so that a first sighting (every check here) is a delivery to each target. After
// --down seconds the json:// and webhook receivers start listening; the bench measures how
// long B takes to deliver the backlog to them, whether each change came once and in
// order, then sends SIGTERM to both and measures how long each takes to exit.
//
// Parameters: --pages 30000, --origins 1 (per watch), --rate 8/s, --down 600 (seconds),
// --after 90 (seconds of watching after the targets are back, at most), --json FILE.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { changingOrigins, freePort, listenOn, receiver, silentServer } from './lib/outbox-servers.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'bin/revisit.js');
const argv = process.argv.slice(2);
const flag = (name, fallback) => {
	const i = argv.indexOf(`--${name}`);
	return i === -1 ? fallback : argv[i + 1];
};
const PAGES = Number(String(flag('pages', 30_000)).replaceAll('_', ''));
const ORIGINS = Number(flag('origins', 1));
const RATE = String(flag('rate', '8/s'));
const DOWN_S = Number(flag('down', 600));
const AFTER_S = Number(flag('after', 90));
const JSON_OUT = flag('json', undefined);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();

// B's targets: down until --down seconds have passed (json, webhook); down throughout (mailto); hung throughout (silent SMTP).
const received = { json: [], webhook: [] };
const jsonPort = await freePort();
const hookPort = await freePort();
const mailPort = await freePort();
const silent = await silentServer();

const dirs = [];
async function watch(who, targets) {
	const origins = await changingOrigins(ORIGINS);
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), `revisit-outbox-bench-${who}-`));
	dirs.push(dir);
	const args = [BIN, 'watch', '--store', dir, '--rate', RATE, '--ndjson', '-q', ...targets];
	const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
	// What the watch found that a target is told of (a first sighting with --feed-new), in the order it printed them.
	const changes = [];
	let stderr = '';
	let rest = '';
	child.stdout.on('data', (chunk) => {
		const lines = (rest + chunk).split('\n');
		rest = lines.pop();
		for (const line of lines) {
			const verdict = JSON.parse(line);
			if (verdict.changed && verdict.reason !== 'error') changes.push({ at: Date.now(), url: verdict.url });
		}
	});
	child.stderr.on('data', (chunk) => (stderr += chunk));
	child.stdin.end(origins.urls(PAGES).join('\n'));
	const exited = new Promise((resolve) => child.on('close', (code) => resolve({ code, at: Date.now() })));
	return { child, origins, changes, exited, stderr: () => stderr, command: `revisit ${args.slice(1).join(' ')}` };
}

const mail = (port) => `mailto://127.0.0.1:${port}?from=revisit@example.org&to=me@example.org`;
const loadAtStart = os.loadavg();
const started = Date.now();
const a = await watch('a', []);
const b = await watch('b', [
	'--notify',
	`json://127.0.0.1:${jsonPort}/hook`,
	'--notify',
	mail(mailPort),
	'--notify',
	mail(silent.port),
	'--webhook',
	`http://127.0.0.1:${hookPort}/hook`,
	'--feed-new',
]);
process.stderr.write(`watching ${PAGES} pages each at ${RATE}, B's targets down for ${DOWN_S} s …\n`);
await sleep(DOWN_S * 1000);

const backAt = Date.now();
// Requests the origins saw from `from` to `to`.
const between = (watcher, from, to = backAt) => watcher.origins.seen.filter((at) => at >= from && at < to).length;
// The second half of the outage: both well past their start, B with a backlog.
const half = started + (DOWN_S * 1000) / 2;
const downChecks = { a: between(a, 0), b: between(b, 0) };
const secondHalf = { a: between(a, half), b: between(b, half) };
const backlog = b.changes.length;
const servers = [receiver(received.json), receiver(received.webhook)];
await listenOn(servers[0], jsonPort);
await listenOn(servers[1], hookPort);
process.stderr.write(`targets back with ${backlog} changes pending each; waiting for them …\n`);
const caughtUp = (list) => list.length >= backlog;
const deadline = backAt + AFTER_S * 1000;
while (Date.now() < deadline && !(caughtUp(received.json) && caughtUp(received.webhook))) await sleep(100);
const deliveredIn = (list) => (caughtUp(list) ? (list[backlog - 1].at - backAt) / 1000 : null);
// When the first attempt after the targets came back got through (the backoff's wait), and how fast the backlog went after it.
const firstIn = (list) => (list.length > 0 ? (list[0].at - backAt) / 1000 : null);
const perSecond = (list) => (caughtUp(list) && backlog > 1 ? Math.round((backlog - 1) / ((list[backlog - 1].at - list[0].at) / 1000)) : null);
// A few more seconds of changes, delivered as they come.
await sleep(5000);
const afterChecks = { a: between(a, backAt, Date.now()), b: between(b, backAt, Date.now()) };

const stopAt = Date.now();
a.child.kill('SIGTERM');
b.child.kill('SIGTERM');
const [endA, endB] = await Promise.all([a.exited, b.exited]);
const told = b.changes.map((change) => change.url);
// Each change at most once and in order: what was received is the start of what B found (the last few may still be pending at the stop).
const once = (list) => list.length <= told.length && list.every((url, i) => url === told[i]);
const ratio = (x, y) => Number((x / y).toFixed(3));
const result = {
	commit,
	date: new Date(started).toISOString(),
	loadAverage: { start: loadAtStart.map((load) => Number(load.toFixed(2))), end: os.loadavg().map((load) => Number(load.toFixed(2))) },
	pages: PAGES,
	originsPerWatch: ORIGINS,
	rate: RATE,
	downSeconds: DOWN_S,
	checks: { none: downChecks.a, allDown: downChecks.b, ratio: ratio(downChecks.b, downChecks.a) },
	secondHalf: { none: secondHalf.a, allDown: secondHalf.b, ratio: ratio(secondHalf.b, secondHalf.a) },
	afterBack: { seconds: Math.round((stopAt - backAt) / 1000), none: afterChecks.a, allDown: afterChecks.b, ratio: ratio(afterChecks.b, afterChecks.a) },
	robotsRequests: { none: a.origins.robots(), allDown: b.origins.robots() },
	backlog,
	deliveredAllWithinSeconds: { json: deliveredIn(received.json), webhook: deliveredIn(received.webhook) },
	firstDeliveredAfterSeconds: { json: firstIn(received.json), webhook: firstIn(received.webhook) },
	backlogDeliveriesPerSecond: { json: perSecond(received.json), webhook: perSecond(received.webhook) },
	eachOnceInOrder: {
		json: once(received.json.map((entry) => entry.body.url)),
		webhook: once(received.webhook.map((entry) => entry.body.verdict.url)),
	},
	changes: told.length,
	received: { json: received.json.length, webhook: received.webhook.length },
	pendingAtStop: { json: told.length - received.json.length, webhook: told.length - received.webhook.length },
	sigtermSeconds: { none: (endA.at - stopAt) / 1000, allDown: (endB.at - stopAt) / 1000 },
	exit: { none: endA.code, allDown: endB.code },
	stderrA: a.stderr().trim().split('\n'),
	stderrB: b.stderr().trim().split('\n'),
	commandA: a.command.replace(/--store \S+/, '--store TMP'),
	commandB: b.command.replace(/--store \S+/, '--store TMP'),
};
console.log(JSON.stringify(result, null, 2));
if (JSON_OUT) fs.writeFileSync(JSON_OUT, `${JSON.stringify(result, null, 2)}\n`);

await Promise.all([a.origins.close(), b.origins.close(), ...servers.map((server) => new Promise((resolve) => server.close(resolve)))]);
silent.close();
for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
