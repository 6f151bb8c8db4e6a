import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Every sequence a page may aim at a terminal: clear the screen, write the clipboard (OSC 52),
// a link that shows another address (OSC 8), the window title (OSC 0), DCS, C1 CSI and OSC,
// CR and BS that overwrite what was printed, a bidi override and a zero-width space.
const ATTACK =
	'\x1b[2J\x1b]52;c;ZXZpbA==\x07\x1b]8;;http://evil.example/\x07link\x1b]8;;\x07\x1b]0;owned\x07\x1bPq#0;2\x1b\\\u009b31m\u009d0;t\x07\r\bX\u202eevil\u200b';

/**
 * The shop page, a little different at each request: its title, text, JSON-LD name and currency and
 * its ETag carry the attack (an ETag can carry C1 only: Node's parser refuses ESC in a header).
 */
function page(n: number): string {
	const jsonLd = JSON.stringify({
		'@context': 'https://schema.org',
		'@type': 'Product',
		name: `Kettle ${ATTACK}`,
		offers: { '@type': 'Offer', price: String(14 + n), priceCurrency: `EUR${ATTACK}`, availability: 'https://schema.org/InStock' },
	});
	return (
		`<!doctype html><html><head><title>Kettle ${ATTACK}</title><script type="application/ld+json">${jsonLd}</script></head><body><h1>Kettle ` +
		`${ATTACK}</h1><p>Price ${14 + n} ${ATTACK} and more words</p></body></html>`
	);
}

/**
 * Where bytes show what a terminal acts on: C0 controls but tab and newline, DEL, C1 (U+0080–U+009F, in UTF-8 or alone), the bidi and zero-width characters.
 */
function rawControls(bytes: Buffer): string[] {
	const found: string[] = [];
	const at = (i: number) => JSON.stringify(bytes.subarray(Math.max(0, i - 20), i + 20).toString('latin1'));
	for (let i = 0; i < bytes.length; i++) {
		const byte = bytes[i]!;
		if ((byte < 0x20 && byte !== 0x09 && byte !== 0x0a) || byte === 0x7f) found.push(`0x${byte.toString(16)} at ${i}: ${at(i)}`);
		else if (byte === 0xc2 && bytes[i + 1]! >= 0x80 && bytes[i + 1]! <= 0x9f) found.push(`C1 0x${bytes[i + 1]!.toString(16)} at ${i}: ${at(i)}`);
	}
	const text = bytes.toString();
	// A C1 byte outside UTF-8 (which an 8-bit terminal reads as CSI) would not survive the round trip.
	if (!Buffer.from(text).equals(bytes)) found.push('bytes that are not UTF-8');
	for (const match of text.matchAll(/[\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g))
		found.push(`U+${match[0].charCodeAt(0).toString(16)} at ${match.index}`);
	return found;
}

interface Run {
	status: number;
	stdout: Buffer;
	stderr: Buffer;
}

/** The built CLI as a child process, its output as the bytes it wrote. */
function revisit(args: string[]): Promise<Run> {
	const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH } });
	const out: Buffer[] = [];
	const err: Buffer[] = [];
	child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
	child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
	return new Promise((resolve) => child.on('close', (code) => resolve({ status: code ?? -1, stdout: Buffer.concat(out), stderr: Buffer.concat(err) })));
}

/** Runs `args` and expects nothing raw on stdout or stderr; `colour` lets the word diff's own SGR colours through. */
async function clean(args: string[], colour = false): Promise<Run> {
	const run = await revisit(args);
	const stdout = colour ? Buffer.from(run.stdout.toString().replace(/\x1b\[(?:1|31|32)?m/g, '')) : run.stdout;
	expect({ args: args.join(' '), stdout: rawControls(stdout), stderr: rawControls(run.stderr) }).toEqual({ args: args.join(' '), stdout: [], stderr: [] });
	return run;
}

/**
 * Runs the CLI on a pseudo-terminal (python3's pty module: the test's stdout is no TTY) and
 * resolves to what the terminal received, calling `seen` with it as it comes.
 */
function onTerminal(args: string[], seen: (text: string) => void): Promise<{ status: number; output: Buffer }> {
	const script =
		'import os, pty, sys\npid, fd = pty.fork()\nif pid == 0:\n    os.execv(sys.argv[1], sys.argv[1:])\nwhile True:\n    try:\n        data = os.read(fd,' +
		' 65536)\n    except OSError:\n        break\n    if not data:\n        break\n    sys.stdout.buffer.write(data)\n    ' +
		'sys.stdout.flush()\nsys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))\n';
	const child = spawn('python3', ['-c', script, process.execPath, BIN, ...args], {
		stdio: ['ignore', 'pipe', 'inherit'],
		env: { PATH: process.env.PATH, TERM: 'xterm' },
	});
	const chunks: Buffer[] = [];
	child.stdout.on('data', (chunk: Buffer) => {
		chunks.push(chunk);
		seen(Buffer.concat(chunks).toString());
	});
	return new Promise((resolve) => child.on('close', (code) => resolve({ status: code ?? -1, output: Buffer.concat(chunks) })));
}

describe('what a page wrote reaches no terminal as a command', () => {
	let server: TestServer;
	let store: { dir: string; cleanup(): Promise<void> };
	const counts = new Map<string, number>();
	let release: () => void = () => {};
	const held = new Promise<void>((resolve) => (release = resolve));

	beforeAll(async () => {
		server = await startServer((req, res) => {
			if (req.url === '/robots.txt') return void res.writeHead(404).end();
			const n = (counts.get(req.url!) ?? 0) + 1;
			counts.set(req.url!, n);
			res.setHeader('content-type', 'text/html; charset=utf-8');
			res.setHeader('etag', `"v${n}\u009b2J\u009d0;x"`);
			// The held page answers once the progress line has been drawn on the terminal.
			if (req.url === '/held') return void held.then(() => res.end(page(n)));
			res.end(page(n));
		});
		store = await tempDir();
	});
	afterAll(async () => {
		release();
		await server.close();
		await store.cleanup();
	});

	it('shows them made visible in sweep, log, diff, rules test, stats, hosts, history and export, and escapes C1 in every JSON', async () => {
		const shop = `${store.dir}/shop`;
		const text = `${store.dir}/text`;
		const [product, page] = [server.url('/product'), server.url('/text')];
		for (let i = 0; i < 2; i++) {
			const sweep = await clean(['sweep', '--store', shop, '--product', '--ndjson', '--all', '--keep-versions', '5', '--audit', '0', product]);
			const [verdict] = sweep.stdout
				.toString()
				.trim()
				.split('\n')
				.map((line) => JSON.parse(line) as { etag: string; product: { price: number; currency?: string } });
			// C1 is escaped in the NDJSON, and read back as it was; the currency that is no code is not read.
			expect(sweep.stdout.toString()).toContain('\\u009b2J');
			expect(verdict!.etag).toContain('\u009b2J');
			expect(verdict!.product).toEqual({ price: 15 + i, availability: 'InStock', source: 'json-ld' });
			await clean(['sweep', '--store', text, '--keep-versions', '5', '--audit', '0', page]);
		}

		const log = await clean(['log', '--store', shop, product]);
		expect(log.stdout.toString()).toContain('<U+009B>2J');
		await clean(['log', '--store', text, '--json', page]);
		const diff = await clean(['diff', '--store', text, page]);
		expect(diff.stdout.toString()).toContain('Kettle ^[[2J^[]52;c;ZXZpbA==^G^[]8;;http://evil.example/^Glink');
		expect(diff.stdout.toString()).toContain('<U+009B>31m<U+009D>0;t^G');
		await clean(['diff', '--store', text, '--color', 'always', page], true);
		await clean(['diff', '--store', text, '-u', page]);
		await clean(['diff', '--store', text, '--json', page]);
		await clean(['diff', '--store', shop, page.replace('/text', '/product')]);

		const body = await clean(['rules', 'test', page]);
		expect(body.stdout.toString()).toContain('<title>Kettle ^[[2J^[]52;c;ZXZpbA==^G');
		const offer = await clean(['rules', 'test', '--product', product]);
		expect(offer.stderr.toString()).toContain('the offer: price 17, availability InStock');
		expect(offer.stderr.toString()).toMatch(/json-ld script #1 Product\.offers: currency "EUR.*" is no ISO 4217 code: not read/);

		for (const args of [['stats'], ['stats', '--json'], ['history'], ['history', '--json'], ['export']]) await clean([...args, '--store', shop]);
		await clean(['hosts', 'set', server.origin, '--mode', 'hash', '--store', shop]);
	});

	it('shows them made visible on a terminal, where the progress line is drawn and the word diff coloured', async () => {
		const dir = `${store.dir}/tty`;
		let released = false;
		// Redrawn at least once (`\r\x1b[K`): the progress line was on the terminal while the page was held.
		const run = await onTerminal(
			['sweep', '--store', dir, '--product', '--ndjson', '--keep-versions', '5', '--audit', '0', server.url('/held'), server.url('/shown')],
			(output) => {
				if (!released && output.includes('\r\x1b[K')) {
					released = true;
					release();
				}
			},
		);
		expect(run.status).toBe(0);
		expect(released).toBe(true);
		// The terminal's own: its line endings (\r\n) and the progress line's redraw.
		const own = (output: Buffer) => Buffer.from(output.toString().replaceAll('\r\n', '\n').replaceAll('\r\x1b[K', ''));
		expect(own(run.output).toString()).toContain('\\u009b2J');
		expect(rawControls(own(run.output))).toEqual([]);

		await revisit(['sweep', '--store', dir, '--keep-versions', '5', '--audit', '0', server.url('/shown')]);
		const diff = await onTerminal(['diff', '--store', dir, server.url('/shown')], () => {});
		expect(diff.status).toBe(1);
		// On a terminal the word diff is coloured, and its colours are the only escape sequences.
		expect(diff.output.toString()).toContain('\x1b[31m');
		expect(
			rawControls(
				Buffer.from(
					own(diff.output)
						.toString()
						.replace(/\x1b\[(?:1|31|32)?m/g, ''),
				),
			),
		).toEqual([]);
	});
});
