import { createHash } from 'node:crypto';
import path from 'node:path';
import type { ReportData } from '../../src/io/report/data.js';
import { runCli, tempDir } from './cli.js';
import { startServer, type TestServer } from './server.js';

/** Three versions of each page: the fixture sweeps after each. */
const PAGES: Record<string, (version: number) => string> = {
	'/article': (v) =>
		`<html><body><h1>Council news</h1><p>The council met on ${v === 1 ? 'Tuesday' : 'Wednesday'} and ${v === 3 ? 'rejected' : 'agreed'} the budget for ` +
		`the harbour.</p></body></html>`,
	// Only whitespace differs between versions 2 and 3 (a line break, as a reader sees it).
	'/spaces': (v) => `<html><body><p>Opening hours: nine to${v === 3 ? '<br>' : ' '}five${v === 1 ? ', closed Sundays' : ''}.</p></body></html>`,
	'/static': () => '<html><body><p>Nothing moves here.</p></body></html>',
	'/price': (v) => `<html><body><p class="price">Price: ${10 + v} EUR</p></body></html>`,
};

export interface ReportSite {
	/** Two origins: /article, /spaces, /static on `a`; /price, /static and /broken (a 500) on `b`. */
	a: TestServer;
	b: TestServer;
	urls: string[];
	storeDir: string;
	/** The report of the last run, and of all three runs. */
	lastRun: string;
	allRuns: string;
	close(): Promise<void>;
}

/**
 * A fixture run for the report: two local origins, three sweeps by the CLI (versions 1,
 * 2 and 3 of every page), then `revisit report --html` of the last run and of all three.
 * The third run changes /article (Tuesday→Wednesday was run 2; agreed→rejected), /spaces
 * (whitespace only) and /price (12→13 EUR); /static answers 304; /broken fails. The store
 * is a LevelDB directory of its own unless `store` names one (a Redis URL).
 *
 * @example
 * const site = await buildReportSite(); // site.lastRun is a report.html path
 */
/**
 * Answers with an HTML `body` and an ETag of its hash, or 304 when the request's
 * If-None-Match is that ETag: a well-behaved origin.
 *
 * @example
 * startServer((req, res) => answerHtml(req, res, '<p>hello</p>'))
 */
export function answerHtml(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, body: string): void {
	const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
	res.setHeader('etag', etag);
	res.setHeader('content-type', 'text/html; charset=utf-8');
	if (req.headers['if-none-match'] === etag) {
		res.statusCode = 304;
		res.end();
		return;
	}
	res.end(body);
}

export async function buildReportSite(options: { store?: string } = {}): Promise<ReportSite> {
	let version = 1;
	const handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
		if (req.url === '/broken') {
			res.statusCode = 500;
			res.end('broken');
			return;
		}
		const page = PAGES[req.url ?? ''];
		if (!page) {
			res.statusCode = 404;
			res.end();
			return;
		}
		answerHtml(req, res, page(version));
	};
	const a = await startServer(handler);
	const b = await startServer(handler);
	const dir = await tempDir('revisit-report-');
	const storeDir = options.store ?? path.join(dir.dir, 'store');
	const urls = [a.url('/article'), a.url('/spaces'), a.url('/static'), b.url('/price'), b.url('/static'), b.url('/broken')];
	const sweep = async () => {
		const run = await runCli(['sweep', '--store', storeDir, '--robots', 'ignore', '--retries', '0', '-q'], `${urls.join('\n')}\n`);
		if (run.status !== 0 && run.status !== 1) throw new Error(`sweep failed (${run.status}): ${run.stderr}`);
	};
	for (version = 1; version <= 3; version++) await sweep();
	const lastRun = path.join(dir.dir, 'report.html');
	const allRuns = path.join(dir.dir, 'all.html');
	for (const [file, extra] of [
		[lastRun, []],
		[allRuns, ['--runs', '3']],
	] as const) {
		const run = await runCli(['report', '--store', storeDir, '--html', file, ...extra]);
		if (run.status !== 0) throw new Error(`report failed (${run.status}): ${run.stderr}`);
	}
	return {
		a,
		b,
		urls,
		storeDir,
		lastRun,
		allRuns,
		close: async () => {
			await a.close();
			await b.close();
			await dir.cleanup();
		},
	};
}

/** The data a report page embeds. */
export function reportData(html: string): ReportData {
	const match = /<script type="application\/json" id="revisit-data">([\s\S]*?)<\/script>/.exec(html);
	if (!match) throw new Error('no data in the page');
	return JSON.parse(match[1]!) as ReportData;
}
