import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { writeReport, type ServerResult } from './report.js';
import { runScenario, type RunFigures, type Scenario } from './scenario.js';
import { installCommand, missingPackages, SERVERS, type RunningServer } from './servers.js';
import { liveGroups } from './servers/launch.js';
import { makeSite } from './site.js';
import { ndjson, spawnCli, tempDir } from '../helpers/cli.js';

// Real web servers from Debian packages, started on 127.0.0.1 by the tests (see
// test/interop/servers/). A server that is not installed is skipped, with one line on
// stderr, except under CI=true, where it fails.
const CI = process.env['CI'] === 'true';
const PAGES = 60;
const REPORT = fileURLToPath(new URL('../../bench/INTEROP.md', import.meta.url));

const missing = new Map(SERVERS.map((spec) => [spec, missingPackages(spec)]));
const skipped = SERVERS.filter((spec) => missing.get(spec)!.length > 0 && !CI);
if (skipped.length > 0) {
	const packages = [...new Set(skipped.flatMap((spec) => missing.get(spec)!))];
	process.stderr.write(
		`interop: skipping ${skipped.map((spec) => spec.name).join(', ')}: not installed (Debian packages: ${packages.join(' ')}); install with: ` +
			`${installCommand(packages)}\n`,
	);
}

interface Check {
	name: string;
	actual: unknown;
	expected: unknown;
}

/** The scenario's assertions, as data: each is asserted softly and, when it fails, named in the report. */
function checks(scenario: Scenario): Check[] {
	const [run1, run2, run3, run4] = scenario.runs as [RunFigures, RunFigures, RunFigures, RunFigures];
	const live = PAGES - scenario.deleted.length;
	const misjudged = (urls: string[], allowed: string[]) =>
		Object.fromEntries(urls.filter((url) => !allowed.includes(run3.reasonOf[url]!)).map((url) => [url, run3.reasonOf[url]]));
	return [
		{ name: 'every sweep exits 0', actual: scenario.runs.map((run) => (run.status === 0 ? 0 : `${run.status}: ${run.stderr.trim()}`)), expected: [0, 0, 0, 0] },
		{ name: 'run 1 (first sight): every URL new', actual: run1.reasons, expected: { new: PAGES } },
		{ name: 'run 2 (unchanged): every URL 304, zero full bodies', actual: run2.reasons, expected: { '304': PAGES } },
		{ name: 'run 3: exactly the 8 edited and 2 deleted URLs changed', actual: run3.changed, expected: [...scenario.edited, ...scenario.deleted].sort() },
		{ name: 'run 3: edits new-body or audit', actual: misjudged(scenario.edited, ['new-body', 'audit']), expected: {} },
		{ name: 'run 3: deletions gone', actual: misjudged(scenario.deleted, ['gone']), expected: {} },
		{ name: 'run 4 (unchanged): nothing changed', actual: run4.changed, expected: [] },
		{ name: 'run 4 (unchanged): every live URL 304, zero full bodies', actual: run4.reasons, expected: { '304': live, gone: scenario.deleted.length } },
	];
}

const results: ServerResult[] = [];

describe.concurrent('revisit against real web servers', () => {
	afterAll(async () => {
		// Every server was stopped by its own test: no process group may be left.
		expect(liveGroups()).toEqual([]);
		if (process.env['REVISIT_WRITE_INTEROP'] === '1') {
			const order = (result: ServerResult) => SERVERS.indexOf(result.spec);
			await writeReport(
				REPORT,
				results.sort((a, b) => order(a) - order(b)),
			);
		}
	});

	for (const spec of SERVERS) {
		if (skipped.includes(spec)) {
			results.push({ spec, note: `skipped: not installed (${missing.get(spec)!.join(' ')})`, failures: [] });
		}
		it.skipIf(skipped.includes(spec))(
			`${spec.name}: reports exactly the edited and deleted pages, and no full body when nothing changed`,
			async ({ expect }) => {
				const packages = missing.get(spec)!;
				if (packages.length > 0)
					throw new Error(`${spec.name} is not installed (Debian packages: ${packages.join(' ')}); CI=true needs every server: ${installCommand(packages)}`);
				const result: ServerResult = { spec, failures: [] };
				results.push(result);
				const site = await makeSite(PAGES);
				const store = await tempDir('revisit-interop-store-');
				let server: RunningServer | undefined;
				try {
					server = await spec.start(site.root);
					result.scenario = await runScenario(site, server.origin, store.dir);
				} catch (error) {
					result.note = `error: ${(error as Error).message.split('\n')[0]}`;
					throw error;
				} finally {
					await server?.stop();
					await site.cleanup();
					await store.cleanup();
				}
				for (const check of checks(result.scenario)) {
					if (!isDeepStrictEqual(check.actual, check.expected)) result.failures.push(`${check.name}: got ${JSON.stringify(check.actual)}`);
					expect.soft(check.actual, `${spec.name}, ${check.name}`).toEqual(check.expected);
				}
			},
			120_000,
		);
	}
});

// Apache's gzip ETag ("size-mtime-gzip") never matches as sent; If-Modified-Since alone gets a
// 304, and so does the tag without "-gzip". A redeploy that keeps file times but changes sizes
// is a 304 to If-Modified-Since alone: only the tag, which carries the size, tells. Under the
// default flags the host must get the most telling form that works, and the redeploy be reported.
const APACHE = SERVERS.find((spec) => spec.name === 'apache2')!;
describe('apache2: a redeploy that keeps file times', () => {
	it.skipIf(skipped.includes(APACHE))(
		'is reported under the default flags: the host gets the bare ETag with If-Modified-Since, not If-Modified-Since alone',
		async () => {
			const site = await makeSite(20);
			const store = await tempDir('revisit-interop-redeploy-');
			const server = await APACHE.start(site.root);
			try {
				const urls = site.urls(server.origin);
				const sweep = async () => {
					const run = await spawnCli(['sweep', '--store', store.dir, '--ndjson', '-q'], `${urls.join('\n')}\n`).done;
					expect(run.status, run.stderr).toBe(0);
					return ndjson(run.stdout)
						.map((verdict) => String(verdict['url']))
						.sort();
				};
				expect(await sweep()).toHaveLength(20);
				expect(await sweep()).toEqual([]);
				const pages = [site.paths[3]!, site.paths[11]!, site.paths[17]!];
				const sizes = await site.redeploy(pages);
				for (const { before, after } of sizes) expect(after).not.toBe(before);
				expect(await sweep()).toEqual(pages.map((page) => `${server.origin}${page}`).sort());
				expect(await sweep()).toEqual([]);
				const stats = ndjson((await spawnCli(['stats', '--store', store.dir, '--json'], '').done).stdout)[0]!;
				expect(stats).toMatchObject({ form: 'etag-stripped-both', formReason: expect.stringContaining('the most telling form') });
			} finally {
				await server.stop();
				await site.cleanup();
				await store.cleanup();
			}
		},
		120_000,
	);
});
