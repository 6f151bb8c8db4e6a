import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { OptionError } from '../../base/errors/index.js';

/**
 * A PDF's text, or why it has none to count (then its bytes are hashed, as for any other
 * file); `transient` when the failure is this machine's (pdftotext missing or too slow),
 * not the file's, and the next reading may well succeed.
 */
export type PdfText = { text: string } | { why: string; transient?: boolean };

/** How PDFs are read: by whom, and how far. */
export interface PdfOptions {
	/** The pdftotext program (Debian's poppler-utils): a path, or a name found on PATH. */
	program?: string | undefined;
	/** A larger PDF is not read (default 32 MiB): its bytes are hashed. */
	maxBytes?: number | undefined;
	/** Longest a reading may take before pdftotext is killed (default 30 s). */
	timeoutMs?: number | undefined;
	/** Text past this many bytes is not read (default 16 MiB): the PDF's bytes are hashed. */
	maxTextBytes?: number | undefined;
	/** pdftotext processes at once, for `pdfReader` (default: the machine's cores); more PDFs wait their turn. */
	concurrency?: number | undefined;
}

const MAX_BYTES = 32 * 1024 * 1024;
const TIMEOUT_MS = 30_000;
const MAX_TEXT_BYTES = 16 * 1024 * 1024;
/** What Debian calls the package, for the message where pdftotext is missing. */
export const PDFTOTEXT_PACKAGE = 'poppler-utils';

/**
 * A body is a PDF by its Content-Type (`application/pdf`, or the older `application/x-pdf`)
 * or, whatever that says, by the `%PDF-` its first bytes start with.
 *
 * @example
 * isPdf('application/octet-stream', Buffer.from('%PDF-1.7\n...')) // true
 */
export function isPdf(contentType: string | undefined, body: Uint8Array): boolean {
	if (/^\s*application\/(?:x-)?pdf\b/i.test(contentType ?? '')) return true;
	return body.length >= 5 && body[0] === 0x25 && body[1] === 0x50 && body[2] === 0x44 && body[3] === 0x46 && body[4] === 0x2d;
}

/**
 * The text of a PDF as `pdftotext` reads it (reading order, UTF-8), one line of text a
 * line: runs of whitespace made one space, blank lines and page breaks left out, so that
 * a PDF regenerated with the same words reads the same. It runs in a child process
 * (never on the event loop), fed the bytes on stdin, killed past `timeoutMs`. Where it
 * cannot give text (encrypted, broken, too large, no text at all, pdftotext missing) the
 * answer is `why`, never a rejection: the caller hashes the bytes instead.
 *
 * @example
 * const read = await pdfText(body);
 * if ('text' in read) hashText(read.text); else console.error(read.why);
 */
export function pdfText(body: Buffer, options: PdfOptions = {}): Promise<PdfText> {
	const maxBytes = options.maxBytes ?? MAX_BYTES;
	if (body.length > maxBytes) return Promise.resolve({ why: `larger than ${maxBytes} bytes, not read` });
	const program = options.program ?? 'pdftotext';
	const maxText = options.maxTextBytes ?? MAX_TEXT_BYTES;
	return new Promise((resolve) => {
		let settled = false;
		const done = (answer: PdfText): void => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			resolve(answer);
		};
		const child = spawn(program, ['-enc', 'UTF-8', '-', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
		const chunks: Buffer[] = [];
		let size = 0;
		let errors = '';
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			done({ why: `pdftotext took longer than ${options.timeoutMs ?? TIMEOUT_MS} ms`, transient: true });
		}, options.timeoutMs ?? TIMEOUT_MS);
		child.on('error', (error: NodeJS.ErrnoException) =>
			done({
				why: error.code === 'ENOENT' ? `${program} is not installed (apt-get install ${PDFTOTEXT_PACKAGE})` : `${program}: ${error.message}`,
				transient: true,
			}),
		);
		child.stdout.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > maxText) {
				child.kill('SIGKILL');
				done({ why: `its text is larger than ${maxText} bytes` });
				return;
			}
			chunks.push(chunk);
		});
		child.stderr.on('data', (chunk: Buffer) => {
			if (errors.length < 4096) errors += chunk.toString('utf8');
		});
		// A reader that quits early (a broken file) closes stdin: that is its answer, not ours to report.
		child.stdin.on('error', () => {});
		child.on('close', (code) => {
			if (code !== 0) return done({ why: whyFailed(code, errors) });
			const text = pdfLines(Buffer.concat(chunks, size).toString('utf8'));
			done(text === '' ? { why: 'no text in it (scanned pages or drawings only)' } : { text });
		});
		child.stdin.end(body);
	});
}

/** pdftotext's exit status and last error line, said for a user. */
function whyFailed(code: number | null, errors: string): string {
	if (/password/i.test(errors)) return 'encrypted: it needs a password';
	const last = errors.trim().split('\n').at(-1)?.trim();
	if (code === 3) return `its text may not be copied (${last ?? 'pdftotext: permission error'})`;
	return last ? `unreadable (pdftotext: ${last})` : `unreadable (pdftotext exited ${code ?? 'on a signal'})`;
}

/**
 * Extracted text made stable: each line's whitespace runs one space, trimmed, blank lines
 * and form feeds (page breaks) dropped.
 *
 * @example
 * pdfLines('Minutes\f\n\n  of the  meeting \n') // 'Minutes\nof the meeting'
 */
export function pdfLines(text: string): string {
	return text
		.split(/[\n\r\f]+/)
		.map((line) => line.replace(/\s+/g, ' ').trim())
		.filter((line) => line !== '')
		.join('\n');
}

/**
 * `pdfText` with at most `options.concurrency` readings at once (default: the machine's
 * cores): a sweep of many PDFs at its usual concurrency would otherwise start a
 * pdftotext per request in flight, each CPU-bound. One reader per HTTP client.
 *
 * @example
 * const read = pdfReader({ concurrency: 2 });
 * const texts = await Promise.all(bodies.map((body) => read(body)));
 */
export function pdfReader(options: PdfOptions = {}): (body: Buffer) => Promise<PdfText> {
	const most = options.concurrency ?? availableParallelism();
	if (!Number.isInteger(most) || most < 1) throw new OptionError('concurrency', `Expected \`concurrency\` to be a positive integer, got \`${most}\``);
	let running = 0;
	const waiting: Array<() => void> = [];
	return async (body) => {
		if (running < most) running++;
		// A slot freed is handed to the first waiting, counted still: no newcomer takes it meanwhile.
		else await new Promise<void>((resolve) => waiting.push(resolve));
		try {
			return await pdfText(body, options);
		} finally {
			const next = waiting.shift();
			if (next) next();
			else running--;
		}
	};
}
