// The PDF targets of issue 38, end to end under the default flags (part of bench/pdf.js):
// a local origin serves PDFs written again on every request with the same text (another
// creation date and file ID, the objects in another order, compressed every other time);
// `revisit sweep` runs 10 times after the first sight and counts the changes it reports
// (target 0). Then one sentence of one PDF is edited: the next sweep must report that
// URL alone, and `revisit report`'s diff of it must hold the new sentence's words.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { prosePages, writePdf } from '../../test/fixtures/pdf-writer.js';

const CLI = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../bin/revisit.js');
const EDITED = 'The library opens at nine on Saturdays from June.';

/** Runs the built CLI with `input` on stdin; resolves with its stdout, stderr and exit status. */
function revisit(args, input = '') {
	return new Promise((resolve) => {
		const child = execFile(process.execPath, [CLI, ...args], { maxBuffer: 1 << 26 }, (error, stdout, stderr) =>
			resolve({ stdout, stderr, status: error ? error.code : 0 }),
		);
		child.stdin.end(input);
	});
}

/**
 * The sweep figures for `documents` PDFs of `sizes` pages each (cycled), over `runs` runs.
 *
 * @example
 * const figures = await pdfSweeps({ documents: 30, sizes: [1, 10, 100], runs: 10 });
 */
export async function pdfSweeps({ documents, sizes, runs }) {
	const texts = Array.from({ length: documents }, (_, i) => prosePages(sizes[i % sizes.length]).map((lines) => lines.map((line) => `${line} (document ${i})`)));
	let served = 0;
	let edited = false;
	const server = http.createServer((req, res) => {
		served++;
		const n = Number(/^\/doc\/(\d+)\.pdf$/.exec(req.url ?? '')?.[1] ?? -1);
		if (!(n >= 0 && n < documents)) return void res.writeHead(404).end();
		const pages = texts[n].map((lines) => [...lines]);
		if (edited && n === 0) pages[0][3] = EDITED;
		res.setHeader('content-type', 'application/pdf');
		res.end(
			writePdf(pages, {
				created: new Date(Date.UTC(2026, 0, 1) + served * 1000),
				id: String(served),
				order: served % 2 ? 'reverse' : 'forward',
				compress: served % 2 === 0,
			}),
		);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${server.address().port}`;
	const urls = `${texts.map((_, i) => `${origin}/doc/${i}.pdf`).join('\n')}\n`;
	const dir = await mkdtemp(path.join(os.tmpdir(), 'revisit-pdf-bench-'));
	const store = path.join(dir, 'store');
	const sweep = async () => {
		const started = performance.now();
		const run = await revisit(['sweep', '--store', store, '--ndjson', '--all'], urls);
		if (run.status !== 0) throw new Error(`sweep failed (${run.status}): ${run.stderr}`);
		const verdicts = run.stdout
			.split('\n')
			.filter(Boolean)
			.map((line) => JSON.parse(line));
		return { ms: performance.now() - started, verdicts, stderr: run.stderr };
	};
	try {
		const first = await sweep();
		const repeats = [];
		for (let i = 0; i < runs; i++) repeats.push(await sweep());
		edited = true;
		const edit = await sweep();
		const report = path.join(dir, 'report.html');
		const shown = await revisit(['report', '--store', store, '--html', report]);
		if (shown.status !== 0) throw new Error(`report failed: ${shown.stderr}`);
		const data = JSON.parse(/<script type="application\/json" id="revisit-data">([\s\S]*?)<\/script>/.exec(await readFile(report, 'utf8'))[1]);
		const change = data.changes.find((entry) => entry.reason === 'new-body');
		// The new side of the diff: what is kept either side of the change, and what was added.
		const after = (change?.diff ?? [])
			.map((hunk) =>
				hunk
					.filter(([op]) => op !== -1)
					.map(([, text]) => text)
					.join(''),
			)
			.join(' … ');
		const added = (change?.diff ?? [])
			.flat()
			.filter(([op]) => op === 1)
			.map(([, text]) => text)
			.join(' ');
		const words = EDITED.replace('.', '').split(' ');
		return {
			documents,
			sizes,
			runs,
			firstNew: first.verdicts.filter((verdict) => verdict.reason === 'new').length,
			changes: repeats.map((run) => run.verdicts.filter((verdict) => verdict.changed).length),
			reasons: [...new Set(repeats.flatMap((run) => run.verdicts.map((verdict) => verdict.reason)))],
			sweepMs: repeats.map((run) => run.ms).sort((a, b) => a - b)[Math.floor(runs / 2)],
			edited: edit.verdicts.filter((verdict) => verdict.changed).map((verdict) => `${verdict.url.slice(origin.length)} ${verdict.reason}`),
			wordsShown: words.filter((word) => after.includes(word)).length,
			words: words.length,
			whole: after.includes(EDITED),
			added: added.replace(/\s+/g, ' ').trim(),
		};
	} finally {
		server.close();
		await rm(dir, { recursive: true, force: true });
	}
}
