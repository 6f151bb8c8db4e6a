import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { writeReport, type ServerResult } from './report.js';
import { runScenario, type RunFigures, type Scenario } from './scenario.js';
import { installCommand, missingPackages, SERVERS, type RunningServer } from './servers.js';
import { liveGroups } from './servers/launch.js';
import { makeSite } from './site.js';

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
	process.stderr.write(`interop: skipping ${skipped.map((spec) => spec.name).join(', ')}: not installed (Debian packages: ${packages.join(' ')}); install with: ${installCommand(packages)}\n`);
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
			await writeReport(REPORT, results.sort((a, b) => order(a) - order(b)));
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
				if (packages.length > 0) throw new Error(`${spec.name} is not installed (Debian packages: ${packages.join(' ')}); CI=true needs every server: ${installCommand(packages)}`);
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
