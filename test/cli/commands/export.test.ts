import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LevelStore } from '../../../src/store/level/store.js';
import { unpackText } from '../../../src/store/model/text-blob.js';
import { reportData } from '../../helpers/report-site.js';
import { ndjson, runCli, tempDir } from '../../helpers/cli.js';
import { startServer, type TestServer } from '../../helpers/server.js';

describe('revisit export / import', () => {
	let server: TestServer;
	let from: { dir: string; cleanup(): Promise<void> };
	let to: { dir: string; cleanup(): Promise<void> };
	beforeEach(async () => {
		server = await startServer((req, res) => res.writeHead(200, { etag: `W/"${req.url}"` }).end(`page ${req.url}`));
		from = await tempDir();
		to = await tempDir();
	});
	afterEach(async () => {
		await server.close();
		await from.cleanup();
		await to.cleanup();
	});

	it('round-trips every URL record, host row, run row, run detail, kept text and version log, validators byte for byte', async () => {
		await runCli(['sweep', '--store', from.dir, '-q'], `${server.url('/a')}\n${server.url('/b')}\n`);
		const dump = await runCli(['export', '--store', from.dir]);
		const lines = ndjson(dump.stdout);
		expect(lines.map((line) => line.kind)).toEqual(['meta', 'url', 'url', 'host', 'run', 'detail', 'text', 'text', 'versions', 'versions']);
		const loaded = await runCli(['import', '--store', to.dir], dump.stdout);
		expect(loaded).toMatchObject({ status: 0, stderr: 'revisit: imported 9 records\n' });
		const again = ndjson((await runCli(['export', '--store', to.dir])).stdout);
		expect(again.slice(1)).toEqual(lines.slice(1));
		const store = await LevelStore.open(to.dir);
		expect((await store.getMany([server.url('/a')]))[0]?.etag).toBe('W/"/a"');
		await store.close();
		// The restored store carries on where the old one stopped, and reports as the old one did.
		expect((await runCli(['sweep', '--store', to.dir, '-q', '--audit', '0'], `${server.url('/a')}\n`)).stdout).toBe('');
		const report = path.join(to.dir, '..', `${path.basename(to.dir)}.html`);
		expect((await runCli(['report', '--store', to.dir, '--html', report, '--runs', '2'])).status).toBe(0);
		expect(reportData(await readFile(report, 'utf8')).changes.map((change) => change.text)).toEqual(['first-sight', 'first-sight']);
		const blobs = [];
		const restored = await LevelStore.open(to.dir);
		for await (const [, blob] of restored.textEntries()) blobs.push(unpackText(blob));
		await restored.close();
		expect(blobs.sort()).toEqual(['page /a', 'page /b']);
	});

	it('names and skips bad lines, loads the rest, and exits 1', async () => {
		const input = [
			'{"kind":"meta","format":1}',
			'not json',
			'{"kind":"url","key":"https://a/","value":{"v":1,"status":200,"lastChecked":5}}',
			'{"kind":"url","key":"https://b/","value":{"v":99,"status":200,"lastChecked":5}}',
			'{"kind":"thing","key":"x","value":{}}',
		].join('\n');
		const { status, stderr } = await runCli(['import', '--store', to.dir], input);
		expect(status).toBe(1);
		expect(stderr).toContain('line 2: not JSON');
		expect(stderr).toContain('line 4: record format 99 is newer than this revisit understands');
		expect(stderr).toContain('line 5: unknown kind "thing" (expected meta, url, host, run, detail, text or versions)');
		expect(stderr).toContain('imported 1 record, skipped 3 bad lines');
	});

	it('refuses a dump from a newer format', async () => {
		const { status, stderr } = await runCli(['import', '--store', to.dir], '{"kind":"meta","format":7}\n');
		expect(status).toBe(1);
		expect(stderr).toContain('dump format 7 is newer than this revisit understands (1)');
	});
});
