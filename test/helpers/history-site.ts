import path from 'node:path';
import { runCli, tempDir } from './cli.js';
import { answerHtml } from './report-site.js';
import { startServer, type TestServer } from './server.js';

/** What the council page says at each sweep: one change of a few words each time. */
export const COUNCIL = [
	'The council met on Tuesday and agreed the budget.',
	'The council met on Wednesday and agreed the budget.',
	'The council met on Wednesday and rejected the budget.',
	'The council met on Wednesday and rejected the new budget.',
];

/** A word longer than any screen is wide. */
export const HUGE_WORD = 'x'.repeat(4000);

/** A hostile page's text at a sweep: markup, quotes and a huge word as text, changing each time. */
export const hostileText = (v: number): string =>
	`<script>window.pwned = ${v}</script> "quoted" 'single' </script><img src=x onerror="window.pwned=1"> ${HUGE_WORD} version ${v}`;

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const PAGES: Record<string, (v: number) => string> = {
	'/council': (v) => `<html><head><title>Council</title></head><body><h1>Council news</h1><p>${COUNCIL[v - 1]}</p></body></html>`,
	'/hostile': (v) => `<html><body><p>${escapeHtml(hostileText(v))}</p></body></html>`,
	'/shoe': (v) =>
		`<html><head><script type="application/ld+json">` +
		JSON.stringify({
			'@context': 'https://schema.org',
			'@type': 'Product',
			name: 'Trail shoe',
			offers: { '@type': 'Offer', price: String(80 + v), priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
		}) +
		`</script></head><body><h1>Trail shoe</h1><p class="price">${80 + v} EUR</p></body></html>`,
};

export interface HistorySite {
	origin: TestServer;
	council: string;
	hostile: string;
	shoe: string;
	storeDir: string;
	/** `revisit report --html` of the last sweep's two runs, and what it said on stderr. */
	report: string;
	reportSaid: string;
	close(): Promise<void>;
}

/**
 * A real run for a URL's page: one origin on 127.0.0.1 whose pages change between four
 * sweeps by the CLI (the council page's words, a hostile page's text, a shoe's price),
 * then `revisit report --html` of the last sweep's two runs.
 *
 * @example
 * const site = await buildHistorySite(); // site.report is a report.html path
 */
export async function buildHistorySite(): Promise<HistorySite> {
	let version = 1;
	const origin = await startServer((req, res) => {
		const page = PAGES[req.url ?? ''];
		if (!page) return void res.writeHead(404).end();
		answerHtml(req, res, page(version));
	});
	const dir = await tempDir('revisit-history-');
	const storeDir = path.join(dir.dir, 'store');
	// The shoe is swept on its own, with --product: its offer is what counts.
	const sweeps = [
		[[origin.url('/council'), origin.url('/hostile')], []],
		[[origin.url('/shoe')], ['--product']],
	] as const;
	for (version = 1; version <= COUNCIL.length; version++) {
		for (const [urls, flags] of sweeps) {
			const run = await runCli(['sweep', '--store', storeDir, '--robots', 'ignore', '--retries', '0', '-q', ...flags], `${urls.join('\n')}\n`);
			if (run.status !== 0 && run.status !== 1) throw new Error(`sweep failed (${run.status}): ${run.stderr}`);
		}
	}
	const report = path.join(dir.dir, 'report.html');
	const run = await runCli(['report', '--store', storeDir, '--html', report, '--runs', '2']);
	if (run.status !== 0) throw new Error(`report failed (${run.status}): ${run.stderr}`);
	return {
		origin,
		council: origin.url('/council'),
		hostile: origin.url('/hostile'),
		shoe: origin.url('/shoe'),
		storeDir,
		report,
		reportSaid: run.stderr,
		close: async () => {
			await origin.close();
			await dir.cleanup();
		},
	};
}
