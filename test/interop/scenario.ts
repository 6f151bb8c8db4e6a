import { ndjson, spawnCli } from '../helpers/cli.js';
import type { Site } from './site.js';

/** What one `revisit sweep --ndjson --all` run showed. */
export interface RunFigures {
	status: number;
	stderr: string;
	/** Verdicts per reason. */
	reasons: Record<string, number>;
	/** URLs with `changed: true`, sorted. */
	changed: string[];
	/** The reason of each URL. */
	reasonOf: Record<string, string>;
	/** Full bodies received: verdicts new, new-body, same-hash or audit. */
	bodies: number;
	/** Sum of the verdicts' `bytes` (body bytes on the wire). */
	bytes: number;
}

export interface Scenario {
	urls: string[];
	edited: string[];
	deleted: string[];
	/** Runs 1 (first sight), 2 (unchanged), 3 (after edits and deletions), 4 (unchanged). */
	runs: RunFigures[];
	/** `revisit stats --json` for the host after run 4 (its `audits` count the unconditional re-fetches of a 304, whose bodies are in no verdict). */
	host: Record<string, unknown>;
	/** An ETag and a Last-Modified from run 1, as the server sent them. */
	sample: { etag?: string; lastModified?: string };
}

const BODY_REASONS = new Set(['new', 'new-body', 'same-hash', 'audit']);

/** Page indexes edited (8) and deleted (2) before run 3, spread over the site. */
export const EDITED = [2, 9, 16, 23, 30, 37, 44, 51];
export const DELETED = [5, 40];

/**
 * Sweeps the site on `origin` four times with the real CLI and a fresh store: first
 * sight, unchanged, after editing 8 pages and deleting 2, unchanged again. Collects the
 * figures and the host's stats after run 4; asserts nothing.
 */
export async function runScenario(site: Site, origin: string, storeDir: string, sweepArgs: string[] = []): Promise<Scenario> {
	const urls = site.urls(origin);
	const edited = EDITED.map((i) => site.paths[i]!);
	const deleted = DELETED.map((i) => site.paths[i]!);
	const runs: RunFigures[] = [];
	const sweep = async () => {
		const run = await spawnCli(['sweep', '--store', storeDir, '--ndjson', '--all', '-q', ...sweepArgs], `${urls.join('\n')}\n`).done;
		runs.push(figures(run.status, run.stdout, run.stderr));
		return run.stdout;
	};
	const first = ndjson(await sweep());
	await sweep();
	await site.edit(edited);
	await site.remove(deleted);
	await sweep();
	await sweep();
	const host = await hostStats(storeDir, origin);
	const sample: Scenario['sample'] = {};
	const withEtag = first.find((verdict) => typeof verdict['etag'] === 'string');
	const withDate = first.find((verdict) => typeof verdict['lastModified'] === 'string');
	if (withEtag) sample.etag = withEtag['etag'] as string;
	if (withDate) sample.lastModified = withDate['lastModified'] as string;
	return { urls, edited: edited.map((page) => `${origin}${page}`), deleted: deleted.map((page) => `${origin}${page}`), runs, host, sample };
}

function figures(status: number, stdout: string, stderr: string): RunFigures {
	const verdicts = ndjson(stdout);
	const reasons: Record<string, number> = {};
	const reasonOf: Record<string, string> = {};
	let bodies = 0;
	let bytes = 0;
	for (const verdict of verdicts) {
		const reason = String(verdict['reason']);
		reasons[reason] = (reasons[reason] ?? 0) + 1;
		reasonOf[String(verdict['url'])] = reason;
		if (BODY_REASONS.has(reason)) bodies++;
		bytes += Number(verdict['bytes'] ?? 0);
	}
	const changed = verdicts
		.filter((verdict) => verdict['changed'] === true)
		.map((verdict) => String(verdict['url']))
		.sort();
	return { status, stderr, reasons, changed, reasonOf, bodies, bytes };
}

async function hostStats(storeDir: string, origin: string): Promise<Record<string, unknown>> {
	const run = await spawnCli(['stats', '--store', storeDir, '--host', origin, '--json'], '').done;
	const [host] = ndjson(run.stdout);
	return host ?? { error: `revisit stats exited ${run.status}: ${run.stderr.trim()}` };
}
