import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { describeNeeding, findProgram } from '../helpers/debian.js';
import { reportData } from '../helpers/report-site.js';
import { startServer } from '../helpers/server.js';
import { prosePages, writePdf } from '../fixtures/pdf-writer.js';

const POPPLER = { name: 'poppler-utils', path: findProgram('pdftotext'), install: 'apt-get install -y poppler-utils' };

/** A sweep of `urls` under the default flags, as NDJSON with every URL's verdict. */
const sweep = async (store: string, urls: string[]) => {
	const run = await runCli(['sweep', '--store', store, '--ndjson', '--all'], `${urls.join('\n')}\n`);
	expect(run.status, run.stderr).toBe(0);
	return { verdicts: ndjson(run.stdout), stderr: run.stderr };
};

const changesIn = async (dir: string, store: string) => {
	const file = path.join(dir, 'report.html');
	const report = await runCli(['report', '--store', store, '--html', file]);
	expect(report.status, report.stderr).toBe(0);
	return reportData(await readFile(file, 'utf8')).changes;
};

describeNeeding(POPPLER, 'revisit sweep on PDFs (default flags)', () => {
	it('counts a PDF regenerated on every request with the same text as no change, run after run', async () => {
		let served = 0;
		const pages = prosePages(4);
		// Every answer new bytes: another creation date and file ID, the objects in another order, compressed every other time.
		const server = await startServer((_req, res) => {
			served++;
			res.setHeader('content-type', 'application/pdf');
			res.end(
				writePdf(pages, {
					created: new Date(Date.UTC(2026, 0, 1) + served * 60_000),
					id: String(served),
					order: served % 2 ? 'reverse' : 'forward',
					compress: served % 2 === 0,
				}),
			);
		});
		const dir = await tempDir();
		try {
			const store = path.join(dir.dir, 'store');
			const url = server.url('/minutes.pdf');
			expect((await sweep(store, [url])).verdicts[0]).toMatchObject({ changed: true, reason: 'new' });
			const hashes = new Set<unknown>();
			for (let run = 0; run < 10; run++) {
				const [verdict] = (await sweep(store, [url])).verdicts;
				expect(verdict).toMatchObject({ changed: false, reason: 'same-content' });
				hashes.add(verdict!['hash']);
			}
			// The bytes did change every time: only the text held still.
			expect(hashes.size).toBe(10);
		} finally {
			await server.close();
			await dir.cleanup();
		}
	});

	it('reports an edited sentence, with its words in the report diff', async () => {
		const pages = prosePages(3);
		let edited = false;
		const server = await startServer((_req, res) => {
			const now = pages.map((lines) => [...lines]);
			if (edited) now[1]![4] = 'The library opens at nine on Saturdays from June.';
			res.setHeader('content-type', 'application/pdf');
			// Compressed, as most PDFs are: the words are nowhere in the bytes.
			res.end(writePdf(now, { id: String(edited), compress: true }));
		});
		const dir = await tempDir();
		try {
			const store = path.join(dir.dir, 'store');
			const url = server.url('/notice.pdf');
			await sweep(store, [url]);
			edited = true;
			expect((await sweep(store, [url])).verdicts[0]).toMatchObject({ changed: true, reason: 'new-body' });
			const [change] = await changesIn(dir.dir, store);
			expect(change).toMatchObject({ reason: 'new-body', text: 'diff' });
			const added = change!
				.diff!.flat()
				.filter(([op]) => op === 1)
				.map(([, text]) => text)
				.join('');
			const removed = change!
				.diff!.flat()
				.filter(([op]) => op === -1)
				.map(([, text]) => text)
				.join('');
			for (const word of ['library', 'opens', 'nine', 'Saturdays', 'June']) expect(added).toContain(word);
			expect(removed).toContain(pages[1]![4]!.split(' ').at(-1)!.replace('.', ''));
			// Text, not the file's syntax.
			expect(
				change!
					.diff!.flat()
					.map(([, text]) => text)
					.join(''),
			).not.toMatch(/\bobj\b|endstream|\/Type/);
		} finally {
			await server.close();
			await dir.cleanup();
		}
	});

	it('judges an encrypted PDF by its bytes and says why on stderr, once, without failing the run', async () => {
		let round = 1;
		// The first always the same bytes; the second new bytes (another file ID) each round.
		const server = await startServer((req, res) => {
			res.setHeader('content-type', 'application/pdf');
			res.end(writePdf(prosePages(1), { encrypt: true, id: req.url === '/locked-1.pdf' ? 'same' : String(round) }));
		});
		const dir = await tempDir();
		try {
			const store = path.join(dir.dir, 'store');
			const urls = [server.url('/locked-1.pdf'), server.url('/locked-2.pdf')];
			const first = await sweep(store, urls);
			expect(first.stderr.match(/PDF text not read: encrypted: it needs a password; judged by its bytes/g)).toHaveLength(1);
			// Said for whichever of the two is read first: the sweep checks them concurrently.
			expect(first.stderr).toMatch(/\/locked-[12]\.pdf: PDF text not read/);
			round++;
			const second = await sweep(store, urls);
			const reasons = Object.fromEntries(second.verdicts.map((verdict) => [verdict['url'], verdict['reason']]));
			expect(reasons).toEqual({ [urls[0]!]: 'same-hash', [urls[1]!]: 'new-body' });
		} finally {
			await server.close();
			await dir.cleanup();
		}
	});
});

describeNeeding(POPPLER, 'revisit rules test on a PDF', () => {
	it('prints the text that counts, and says it read a PDF; an encrypted one is said to be hashed as bytes', async () => {
		const server = await startServer((req, res) => {
			res.setHeader('content-type', 'application/pdf');
			res.end(writePdf([['Agenda', 'Item 1: the new roof']], { compress: true, encrypt: req.url === '/locked.pdf' }));
		});
		try {
			const read = await runCli(['rules', 'test', server.url('/agenda.pdf')]);
			expect(read.status, read.stderr).toBe(0);
			expect(read.stdout).toBe('Agenda\nItem 1: the new roof\n');
			expect(read.stderr).toContain('no rules: the whole body counts; read as pdf');
			const locked = await runCli(['rules', 'test', server.url('/locked.pdf')]);
			expect(locked.stderr).toContain('a PDF whose text was not read (encrypted: it needs a password): hashed as bytes');
		} finally {
			await server.close();
		}
	});
});

describe('revisit sweep on JSON (default flags)', () => {
	it('counts a change of key order alone as no change, and diffs a changed value pretty-printed with sorted keys', async () => {
		let body = '{"price":5,"name":"Kettle","stock":{"shop":3,"web":12}}';
		const server = await startServer((_req, res) => {
			res.setHeader('content-type', 'application/json');
			res.end(body);
		});
		const dir = await tempDir();
		try {
			const store = path.join(dir.dir, 'store');
			const url = server.url('/item.json');
			await sweep(store, [url]);
			body = '{"stock":{"web":12,"shop":3},"name":"Kettle","price":5}';
			expect((await sweep(store, [url])).verdicts[0]).toMatchObject({ changed: false, reason: 'same-content' });
			body = '{"name":"Kettle","stock":{"web":11,"shop":3},"price":5}';
			expect((await sweep(store, [url])).verdicts[0]).toMatchObject({ changed: true, reason: 'new-body' });
			const [change] = await changesIn(dir.dir, store);
			expect(change!.diff!.flat().filter(([op]) => op !== 0)).toEqual([
				[-1, '12'],
				[1, '11'],
			]);
			// The context around the change is the pretty-printed document: a key a line, sorted.
			expect(
				change!
					.diff!.flat()
					.map(([, text]) => text)
					.join(''),
			).toContain('"shop": 3,\n    "web": ');
		} finally {
			await server.close();
			await dir.cleanup();
		}
	});
});
