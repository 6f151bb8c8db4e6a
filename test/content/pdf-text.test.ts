import { describe, expect, it } from 'vitest';
import { isPdf, pdfLines, pdfText } from '../../src/content/pdf-text.js';
import { prosePages, writePdf } from '../fixtures/pdf-writer.js';
import { describeNeeding, findProgram } from '../helpers/debian.js';

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
