import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { rawStream, visibleIo, type CliIo } from '../../src/cli/io.js';
import { collect } from '../helpers/cli.js';

function io(): { io: CliIo; out(): string; err(): string } {
	const [stdout, stderr] = [collect(), collect()];
	return {
		io: { stdin: Readable.from([]), stdout: stdout.stream, stderr: Object.assign(stderr.stream, { isTTY: true }), env: {}, interrupted: new Promise(() => {}) },
		out: stdout.text,
		err: stderr.text,
	};
}

describe('visibleIo', () => {
	it('writes every string to stdout and stderr made visible, in order, with the callback called', async () => {
		const { io: given, out, err } = io();
		const shown = visibleIo(given);
		shown.stderr.write('revisit: the offer: price 15 EUR\x1b[2J\u009b31m\r\n');
		await new Promise<void>((resolve) => shown.stdout.write('a\tb\x07\n', () => resolve()));
		shown.stdout.write('c\n');
		expect(err()).toBe('revisit: the offer: price 15 EUR^[[2J<U+009B>31m^M\n');
		expect(out()).toBe('a\tb^G\nc\n');
	});

	it("keeps the stream's own properties and passes bytes as they are (a command's output piped through)", async () => {
		const { io: given, err } = io();
		const shown = visibleIo(given);
		expect(shown.stderr.isTTY).toBe(true);
		shown.stderr.write(Buffer.from('\x1b[1mbold\x1b[m\n'));
		const piped = Readable.from([Buffer.from('piped\x07\n')]);
		await new Promise((resolve) => piped.on('end', resolve).pipe(shown.stderr, { end: false }));
		await new Promise((resolve) => setImmediate(resolve));
		expect(err()).toBe('\x1b[1mbold\x1b[m\npiped\x07\n');
		expect(visibleIo(shown).stderr).toBe(shown.stderr);
	});

	it('gives the stream it writes to for the sequences revisit writes itself', () => {
		const { io: given, err } = io();
		const shown = visibleIo(given);
		expect(rawStream(shown.stderr)).toBe(given.stderr);
		expect(rawStream(given.stderr)).toBe(given.stderr);
		rawStream(shown.stderr).write('\r\x1b[K');
		expect(err()).toBe('\r\x1b[K');
	});
});
