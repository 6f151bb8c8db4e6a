import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPdf, pdfLines, pdfReader, pdfText } from '../../../src/domain/content/pdf-text.js';
import { tempDir } from '../../helpers/cli.js';
import { prosePages, writePdf } from '../../fixtures/pdf-writer.js';
import { describeNeeding, findProgram } from '../../helpers/debian.js';

const POPPLER = { name: 'poppler-utils', path: findProgram('pdftotext'), install: 'apt-get install -y poppler-utils' };

describe('isPdf', () => {
	it('knows a PDF by its Content-Type or, whatever that says, by its first bytes', () => {
		expect(isPdf('application/pdf', Buffer.from('anything'))).toBe(true);
		expect(isPdf('Application/PDF; qs=0.9', Buffer.alloc(0))).toBe(true);
		expect(isPdf('application/octet-stream', Buffer.from('%PDF-1.7\n'))).toBe(true);
		expect(isPdf(undefined, Buffer.from('%PDF-1.4'))).toBe(true);
		expect(isPdf('text/html', Buffer.from('<p>%PDF-1.4</p>'))).toBe(false);
		expect(isPdf('application/pdfx', Buffer.from('x'))).toBe(false);
	});
});

describe('pdfLines', () => {
	it('makes extracted text stable: one space for each whitespace run, no blank lines, no page breaks', () => {
		expect(pdfLines('Minutes\f\n\n  of the \t meeting \r\n\fEnd\n')).toBe('Minutes\nof the meeting\nEnd');
	});
});

describeNeeding(POPPLER, 'pdfText (pdftotext)', () => {
	const pages = prosePages(3, 12);

	it('reads the same text out of a PDF written again with another date, ID, object order and compression', async () => {
		const first = await pdfText(writePdf(pages));
		const again = await pdfText(writePdf(pages, { created: new Date(Date.UTC(2026, 6, 4, 12)), id: 'other', order: 'reverse', compress: true }));
		const split = await pdfText(writePdf(pages, { layout: 'split' }));
		expect(first).toEqual({ text: pages.flat().join('\n') });
		expect(again).toEqual(first);
		expect(split).toEqual(first);
	});

	it('reads words set apart by position alone (no space characters), and WinAnsi characters, as written', async () => {
		const lines = ['Café prices: 5 € – “fair” ‘quoted’', 'Total (net): 1,234.50 EUR'];
		expect(await pdfText(writePdf([lines], { layout: 'kerned' }))).toEqual({ text: lines.join('\n') });
	});

	it('gives a reason, not text nor an error, for an encrypted PDF, a broken one and one with no text', async () => {
		expect(await pdfText(writePdf(pages, { encrypt: true }))).toEqual({ why: 'encrypted: it needs a password' });
		const broken = await pdfText(writePdf(pages, { broken: true }));
		expect(broken).toMatchObject({ why: expect.stringMatching(/^unreadable \(pdftotext: .+\)$/) });
		expect(broken).not.toHaveProperty('transient');
		expect(await pdfText(writePdf([[]]))).toEqual({ why: 'no text in it (scanned pages or drawings only)' });
		expect(await pdfText(Buffer.from('<html>not a pdf at all</html>'))).toMatchObject({ why: expect.stringMatching(/^unreadable/) });
	});

	it('does not read a PDF past the size cap, and kills a reading past the time limit, as a failure of the moment', async () => {
		const body = writePdf(prosePages(200));
		expect(await pdfText(body, { maxBytes: 1000 })).toEqual({ why: 'larger than 1000 bytes, not read' });
		expect(await pdfText(body, { timeoutMs: 1 })).toEqual({ why: 'pdftotext took longer than 1 ms', transient: true });
		expect(await pdfText(body, { maxTextBytes: 100 })).toEqual({ why: 'its text is larger than 100 bytes' });
	});
});

describe('pdfText without pdftotext', () => {
	it('says which Debian package is missing, as a failure of the moment (the PDF is judged by its bytes meanwhile)', async () => {
		expect(await pdfText(writePdf([['x']]), { program: '/nonexistent/pdftotext' })).toEqual({
			why: '/nonexistent/pdftotext is not installed (apt-get install poppler-utils)',
			transient: true,
		});
	});
});

describe('pdfReader', () => {
	it('runs no more readings at once than its concurrency, and every one of them', async () => {
		const { dir, cleanup } = await tempDir('revisit-pdf-reader-');
		try {
			// A stand-in for pdftotext that logs its start and end, and holds its slot a moment.
			const program = path.join(dir, 'fake-pdftotext');
			const log = path.join(dir, 'log');
			await writeFile(program, `#!/bin/sh\necho start >> ${log}\ncat > /dev/null\nsleep 0.2\necho end >> ${log}\necho text\n`, { mode: 0o755 });
			const read = pdfReader({ program, concurrency: 2 });
			const answers = await Promise.all(Array.from({ length: 5 }, () => read(Buffer.from('%PDF-1.4'))));
			expect(answers).toEqual(Array.from({ length: 5 }, () => ({ text: 'text' })));
			let running = 0;
			let most = 0;
			for (const line of (await readFile(log, 'utf8')).trim().split('\n')) {
				running += line === 'start' ? 1 : -1;
				most = Math.max(most, running);
			}
			expect(most).toBeLessThanOrEqual(2);
		} finally {
			await cleanup();
		}
	});

	it('refuses a concurrency that is not a positive integer', () => {
		expect(() => pdfReader({ concurrency: 0 })).toThrow('Expected `concurrency` to be a positive integer, got `0`');
	});
});
