import type http from 'node:http';
import { afterEach, beforeEach } from 'vitest';
import { startServer, type SeenRequest, type TestServer } from '../helpers/server.js';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { LevelStore } from '../../src/store/level/store.js';
import type { UrlRecord } from '../../src/store/model/types.js';

/** What one `revisit sweep` run left behind, with stdout parsed as NDJSON verdicts. */
export interface SweepRun {
	status: number;
	stdout: string;
	stderr: string;
	verdicts: Array<Record<string, unknown>>;
}

/**
 * Runs `revisit sweep --store dir --ndjson --all -q` in-process over `urls` (as stdin).
 *
 * @example
 * const run = await sweepRun(store.dir, [server.url('/a')], ['--retries', '0']);
 */
export async function sweepRun(dir: string, urls: readonly string[], extra: readonly string[] = []): Promise<SweepRun> {
	const result = await runCli(['sweep', '--store', dir, '--ndjson', '--all', '-q', ...noAudits(extra), ...extra], urls.map((url) => `${url}\n`).join(''));
	return { ...result, verdicts: ndjson(result.stdout) };
}

/**
 * No random audits unless a test asks (`--audit X` in `extra`): they add requests that
 * request-counting assertions don't expect. Only added when absent: yargs turns a repeated
 * flag into an array, which --audit rejects.
 */
function noAudits(extra: readonly string[]): string[] {
	return extra.some((arg) => arg === '--audit' || arg.startsWith('--audit=')) ? [] : ['--audit', '0'];
}

/** The verdict for `url` (exactly one is expected). */
export function verdictFor(run: SweepRun, url: string): Record<string, unknown> {
	const found = run.verdicts.filter((verdict) => verdict.url === url);
	if (found.length !== 1) throw new Error(`expected one verdict for ${url}, got ${found.length}: ${run.stdout}`);
	return found[0]!;
}

/** Opens the store after a run, reads `keys`, closes it again (the next run needs the lock). */
export async function readStore(dir: string, keys: readonly string[]): Promise<Array<UrlRecord | undefined>> {
	const store = await LevelStore.open(dir);
	try {
		return await store.getMany(keys);
	} finally {
		await store.close();
	}
}

/** One stored record, read as `readStore` does. */
export async function readRecord(dir: string, key: string): Promise<UrlRecord | undefined> {
	const [record] = await readStore(dir, [key]);
	return record;
}

/** Every value of header `name` exactly as it crossed the wire (names compared case-insensitively). */
export function rawHeader(request: SeenRequest | undefined, name: string): string[] {
	if (!request) throw new Error(`no request to read ${name} from`);
	const values: string[] = [];
	for (let i = 0; i < request.rawHeaders.length; i += 2) {
		if (request.rawHeaders[i]!.toLowerCase() === name.toLowerCase()) values.push(request.rawHeaders[i + 1]!);
	}
	return values;
}

/**
 * Runs the sweep in its default output mode (changed URLs, one per line) and returns
 * the lines printed.
 */
export async function sweepLines(
	dir: string,
	urls: readonly string[],
	extra: readonly string[] = [],
): Promise<{ status: number; lines: string[]; stderr: string }> {
	const result = await runCli(['sweep', '--store', dir, '-q', ...noAudits(extra), ...extra], urls.map((url) => `${url}\n`).join(''));
	return { status: result.status, lines: result.stdout.split('\n').filter((line) => line !== ''), stderr: result.stderr };
}

/**
 * Registers per-test fixtures: a fresh store directory and servers closed after each test.
 *
 * @example
 * const fx = useFixtures();
 * it('...', async () => { const server = await fx.serve((req, res) => res.end('x')); ... fx.dir ... });
 */
export function useFixtures(): { readonly dir: string; serve(handler: http.RequestListener): Promise<TestServer> } {
	let store: { dir: string; cleanup(): Promise<void> } | undefined;
	const servers: TestServer[] = [];
	beforeEach(async () => {
		store = await tempDir();
	});
	afterEach(async () => {
		await Promise.all(servers.splice(0).map((server) => server.close()));
		await store?.cleanup();
	});
	return {
		get dir() {
			return store!.dir;
		},
		async serve(handler) {
			const server = await startServer(handler);
			servers.push(server);
			return server;
		},
	};
}
