// A watch keeps its rate while every delivery target is down: `node bench/watch-outbox.js`
// (after `npm run build`). Issue 36, part 1.
//
// One origin in this process (127.0.0.1) serves N pages whose body changes at every
// request, so every check is a change and every change is a delivery per target. Two
// watches run side by side, in one run, on stores of their own, with the same flags:
//   revisit watch --store TMP --rate R --min-interval 1s --max-interval 10s --robots ignore --ndjson
// A has no target. B has every target down: --notify json:// and --webhook to ports
// nothing listens on, --notify mailto:// to a port nothing listens on, and --notify
// mailto:// to an SMTP server that accepts and never says a word. After --down seconds the
// json:// and webhook receivers start listening; the bench measures how long B takes to
// deliver the backlog to them, whether each change came once, then sends SIGTERM to both
// and measures how long each takes to exit.
//
// Parameters: --pages 100, --rate 8/s, --down 600 (seconds), --after 90 (seconds of
// watching after the targets are back, at most), --json FILE.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'bin/revisit.js');
const argv = process.argv.slice(2);
const flag = (name, fallback) => {
	const i = argv.indexOf(`--${name}`);
	return i === -1 ? fallback : argv[i + 1];
};
const PAGES = Number(flag('pages', 100));
const RATE = String(flag('rate', '8/s'));
const DOWN_S = Number(flag('down', 600));
const AFTER_S = Number(flag('after', 90));
const JSON_OUT = flag('json', undefined);

const listenOn = (server, port = 0) => new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server.address().port)));
const freePort = async () => {
	const server = net.createServer();
	const port = await listenOn(server);
	await new Promise((resolve) => server.close(resolve));
	return port;
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The origin: /a/N and /b/N, each a new body at every request.
const hits = { a: [], b: [] };
let served = 0;
const origin = http.createServer((req, res) => {
	const who = req.url.split('/')[1];
	if (who === 'a' || who === 'b') hits[who].push(Date.now());
	res.writeHead(200, { 'content-type': 'text/plain' }).end(`${req.url} version ${++served}\n`);
});
const originPort = await listenOn(origin);

// B's targets: down until --down seconds have passed (json, webhook); down throughout (mailto); hung throughout (silent SMTP).
const received = { json: [], webhook: [] };
const receiver = (into) =>
	http.createServer((req, res) => {
		let text = '';
		req.on('data', (chunk) => (text += chunk));
		req.on('end', () => {
			into.push({ at: Date.now(), body: JSON.parse(text) });
			res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
		});
	});
const jsonPort = await freePort();
const hookPort = await freePort();
const mailPort = await freePort();
const silentSockets = new Set();
const silent = net.createServer((socket) => {
	silentSockets.add(socket);
	socket.on('error', () => {});
});
const silentPort = await listenOn(silent);

const dirs = [];
function watch(who, targets) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), `revisit-outbox-bench-${who}-`));
	dirs.push(dir);
	const urls = Array.from({ length: PAGES }, (_, i) => `http://127.0.0.1:${originPort}/${who}/${i}`).join('\n');
	const args = [BIN, 'watch', '--store', dir, '--rate', RATE, '--min-interval', '1s', '--max-interval', '10s', '--robots', 'ignore', '--audit', '0', '--ndjson', '-q', ...targets];
	const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
	const changes = [];
	let stderr = '';
	let rest = '';
	child.stdout.on('data', (chunk) => {
		const lines = (rest + chunk).split('\n');
		rest = lines.pop();
		for (const line of lines) {
			const verdict = JSON.parse(line);
			if (verdict.changed && verdict.reason !== 'new') changes.push({ at: Date.now(), url: verdict.url });
		}
	});
	child.stderr.on('data', (chunk) => (stderr += chunk));
	child.stdin.end(urls);
	const exited = new Promise((resolve) => child.on('close', (code) => resolve({ code, at: Date.now() })));
	return { child, changes, exited, stderr: () => stderr, command: `revisit ${args.slice(1).join(' ')}` };
}

const mail = (port) => `mailto://127.0.0.1:${port}?from=revisit@example.org&to=me@example.org`;
const started = Date.now();
const a = watch('a', []);
const b = watch('b', ['--notify', `json://127.0.0.1:${jsonPort}/hook`, '--notify', mail(mailPort), '--notify', mail(silentPort), '--webhook', `http://127.0.0.1:${hookPort}/hook`]);
process.stderr.write(`watching ${PAGES} pages each at ${RATE}, B's targets down for ${DOWN_S} s …\n`);
await sleep(DOWN_S * 1000);

const downChecks = { a: hits.a.length, b: hits.b.length };
// The second half of the outage: both past their start, B with a backlog.
const half = started + (DOWN_S * 1000) / 2;
const secondHalf = { a: hits.a.filter((at) => at >= half).length, b: hits.b.filter((at) => at >= half).length };
const backAt = Date.now();
const backlog = b.changes.length;
const servers = [receiver(received.json), receiver(received.webhook)];
await listenOn(servers[0], jsonPort);
await listenOn(servers[1], hookPort);
process.stderr.write(`targets back with ${backlog} changes pending each; waiting for them …\n`);
const caughtUp = (list) => list.length >= backlog;
const deadline = backAt + AFTER_S * 1000;
while (Date.now() < deadline && !(caughtUp(received.json) && caughtUp(received.webhook))) await sleep(100);
const deliveredIn = (list) => (caughtUp(list) ? (list[backlog - 1].at - backAt) / 1000 : null);
const figures = { json: deliveredIn(received.json), webhook: deliveredIn(received.webhook) };
// When the first attempt after the targets came back got through (the backoff's wait), and how fast the backlog went after it.
const firstIn = (list) => (list.length > 0 ? (list[0].at - backAt) / 1000 : null);
const perSecond = (list) => (caughtUp(list) && backlog > 1 ? Math.round((backlog - 1) / ((list[backlog - 1].at - list[0].at) / 1000)) : null);
// A few more seconds of changes, delivered as they come.
await sleep(5000);

const stopAt = Date.now();
a.child.kill('SIGTERM');
b.child.kill('SIGTERM');
const [endA, endB] = await Promise.all([a.exited, b.exited]);
const told = b.changes.map((change) => change.url);
// Each change at most once and in order: what was received is the start of what B found (the last few may still be pending at the stop).
const once = (list) => list.length <= told.length && list.every((entry, i) => entry.url === told[i]);
const result = {
	pages: PAGES,
	rate: RATE,
	downSeconds: DOWN_S,
	checks: { none: downChecks.a, allDown: downChecks.b, ratio: Number((downChecks.b / downChecks.a).toFixed(3)) },
	secondHalf: { none: secondHalf.a, allDown: secondHalf.b, ratio: Number((secondHalf.b / secondHalf.a).toFixed(3)) },
	backlog,
	deliveredAllWithinSeconds: figures,
	firstDeliveredAfterSeconds: { json: firstIn(received.json), webhook: firstIn(received.webhook) },
	backlogDeliveriesPerSecond: { json: perSecond(received.json), webhook: perSecond(received.webhook) },
	eachOnceInOrder: {
		json: once(received.json.map((entry) => entry.body)),
		webhook: once(received.webhook.map((entry) => ({ url: entry.body.verdict.url }))),
	},
	changes: told.length,
	received: { json: received.json.length, webhook: received.webhook.length },
	pendingAtStop: { json: told.length - received.json.length, webhook: told.length - received.webhook.length },
	sigtermSeconds: { none: (endA.at - stopAt) / 1000, allDown: (endB.at - stopAt) / 1000 },
	exit: { none: endA.code, allDown: endB.code },
	stderrB: b.stderr().trim().split('\n'),
	commandB: b.command.replace(/--store \S+/, '--store TMP'),
};
console.log(JSON.stringify(result, null, 2));
if (JSON_OUT) fs.writeFileSync(JSON_OUT, `${JSON.stringify(result, null, 2)}\n`);

for (const server of [origin, silent, ...servers]) server.close();
for (const socket of silentSockets) socket.destroy();
for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
