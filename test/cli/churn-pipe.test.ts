import { spawn } from 'node:child_process';
import { cp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ndjson, runCli, spawnCli, type CliRun } from '../helpers/cli.js';
import { FEW, LIMITS, lines, MOST, useChurnSite, written } from './churn-site.js';

const FETCH_LIMITS = ['--concurrency', '6', '--per-host', '6'];

describe('churn guard: sweep --candidates | fetch judges churn over the URLs the sweep probed', () => {
	const fx = useChurnSite();

	/** The two commands as two processes on one store, through a shell pipe; `tee` keeps the candidates. */
	function sweepIntoFetch(fetchArgs: string[], tee: string): Promise<CliRun> {
		const bin = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`;
		const fetch = [...FETCH_LIMITS, ...fetchArgs].map((arg) => JSON.stringify(arg)).join(' ');
		const shell = spawn(
			'bash',
			['-c', `set -o pipefail; ${bin} sweep --candidates -q --store "$STORE" ${LIMITS.join(' ')} | tee "$TEE" | ${bin} fetch --store "$STORE" ${fetch}`],
			{
				env: { ...process.env, STORE: fx.site.store, TEE: tee },
			},
		);
		let stdout = '';
		let stderr = '';
		shell.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		shell.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		shell.stdin.end(fx.site.input());
		return new Promise((resolve) => shell.on('close', (status) => resolve({ status: status ?? -1, stdout, stderr })));
	}

	it('lets 200 edits of 3,000 through, holds 2,900 back (nothing committed or written) until --accept-churn', async () => {
		const few = fx.site.edit(FEW);
		const passed = await sweepIntoFetch(['--out', path.join(fx.dir, 'few'), '-q'], path.join(fx.dir, 'few.txt'));
		expect(passed).toMatchObject({ status: 0, stderr: '' });
		expect(lines(passed.stdout)).toEqual(few);
		expect(await written(path.join(fx.dir, 'few'))).toEqual({ files: 200, urls: few });

		const most = fx.site.edit(MOST);
		const pages = path.join(fx.dir, 'most');
		const before = fx.site.fetches();
		const churn = await sweepIntoFetch(['--out', pages], path.join(fx.dir, 'most.txt'));
		// Once blocked, the host's remaining candidates are held without being downloaded: the guard's
		// sample and what the fetch phase had in hand (its window, 256 lines) at most.
		expect(fx.site.fetches() - before).toBeLessThanOrEqual(20 + 256);
		expect(churn).toMatchObject({ status: 3, stdout: '' });
		expect(churn.stderr).toMatch(
			new RegExp(
				`${fx.site.server.origin}: about 2900 of its first 3000 known URLs changed \\(20 of 20 fetched\\), where their change rates predicted [\\d.]+ ` +
					`of \\d+: changes held back \\(churn guard\\)`,
			),
		);
		expect(await written(pages)).toEqual({ files: 0, urls: [] });
		await fx.site.uncommitted(most);
		expect(await fx.site.blocked()).toBe(true);
		// A plain sweep still finds every edit (on a copy of the store: it commits).
		const copy = path.join(fx.dir, 'copy');
		await cp(fx.site.store, copy, { recursive: true });
		const sweep = await runCli(['sweep', '--store', copy, '-q', '--max-churn', '0', '--ndjson', ...LIMITS], fx.site.input());
		expect(
			ndjson(sweep.stdout)
				.filter((verdict) => verdict.reason === 'new-body')
				.map((verdict) => verdict.url)
				.sort(),
		).toEqual(most);

		// The same candidates again, let through.
		const candidates = await readFile(path.join(fx.dir, 'most.txt'), 'utf8');
		const accepted = await spawnCli(['fetch', '--store', fx.site.store, '--out', pages, '-q', ...FETCH_LIMITS, '--accept-churn', '127.0.0.1'], candidates).done;
		expect(accepted.status).toBe(0);
		expect(lines(accepted.stdout)).toEqual(most);
		expect(await written(pages)).toEqual({ files: 2900, urls: most });
		expect(await fx.site.blocked()).toBe(false);
	}, 120_000);
});
