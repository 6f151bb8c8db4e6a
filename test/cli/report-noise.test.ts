import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { reportData } from '../helpers/report-site.js';
import { startServer } from '../helpers/server.js';

describe('revisit report with learned noise', () => {
	it('diffs what counted: learned places are masked in the diff, and the report says how many', async () => {
		let price = '$24.50';
		let served = 0;
		// A "recently viewed" block that rotates and a request counter on every fetch; the price moves once.
		const server = await startServer((_req, res) => {
			served++;
			res.setHeader('content-type', 'text/html');
			res.end(
				`<html><body><h1>Kettle</h1><p class="price">Price: ${price}</p>` +
					`<aside class="recent"><h2>Recently viewed</h2><ul><li>${['Shoes', 'Hats', 'Coats', 'Gloves'][served % 4]}</li></ul></aside>` +
					`<footer><span class="count">Request ${served}</span></footer></body></html>`,
			);
		});
		const dir = await tempDir();
		try {
			const store = path.join(dir.dir, 'store');
			const sweep = () => runCli(['sweep', '--store', store, '--robots', 'ignore', '--learn-noise', '--audit', '0', '-q'], `${server.url('/kettle')}\n`);
			expect((await sweep()).status).toBe(0);
			expect((await sweep()).status).toBe(0);
			price = '$21.00';
			const changed = await sweep();
			expect(changed.status).toBe(0);
			const page = path.join(dir.dir, 'r.html');
			expect((await runCli(['report', '--store', store, '--html', page])).status).toBe(0);
			const [change] = reportData(await readFile(page, 'utf8')).changes;
			expect(change).toMatchObject({ reason: 'new-body', text: 'diff' });
			const edits = change!.diff!.flat().filter(([op]) => op !== 0);
			expect(edits).toEqual([
				[-1, '$24.50'],
				[1, '$21.00'],
			]);
			expect(change!.noise).toBeGreaterThanOrEqual(2);
		} finally {
			await server.close();
			await dir.cleanup();
		}
	});
});
