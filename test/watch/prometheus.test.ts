import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/level/memory.js';
import { listen, type Listening } from '../../src/watch/listen.js';
import { createWatchMetrics } from '../../src/watch/metrics.js';
import { tempDir } from '../helpers/cli.js';
import { describeNeeding, findProgram } from '../helpers/debian.js';

const PROMETHEUS = findProgram('prometheus');

const freePort = (): Promise<number> =>
	new Promise((resolve, reject) => {
		const server = net.createServer().listen(0, '127.0.0.1', () => {
			const { port } = server.address() as net.AddressInfo;
			server.close(() => resolve(port));
		});
		server.on('error', reject);
	});

// The test: a real Prometheus (Debian's) scrapes the watch's /metrics, and what it stored can be queried back.
describeNeeding({ name: 'prometheus', path: PROMETHEUS, install: 'apt-get install -y prometheus' }, 'a real Prometheus scrapes /metrics', () => {
	let server: Listening | undefined;
	let prometheus: ChildProcess | undefined;
	let dir: { dir: string; cleanup(): Promise<void> } | undefined;
	afterEach(async () => {
		prometheus?.kill('SIGKILL');
		await server?.close();
		await dir?.cleanup();
	});

	it('scrapes the checks, the queue and the lateness histogram, and answers a query over them', async () => {
		const metrics = createWatchMetrics();
		for (let i = 0; i < 7; i++) metrics.check('304', 0, false);
		metrics.check('new-body', 1200, true);
		metrics.late(0.4);
		metrics.queue({ size: 40, backlog: 3, claimed: 2, hosts: 2 }, [{ origin: 'https://a.test', depth: 3 }]);
		server = await listen({ host: '127.0.0.1', port: 0 }, { metrics, health: () => ({ ok: true }), report: { store: new MemoryStore(), source: 'memory' } });
		dir = await tempDir('revisit-prometheus-');
		const port = await freePort();
		const config = path.join(dir.dir, 'prometheus.yml');
		await writeFile(
			config,
			`global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: revisit\n    static_configs:\n      - targets: ['127.0.0.1:${server.address.port}']\n`,
		);
		prometheus = spawn(
			PROMETHEUS!,
			[`--config.file=${config}`, `--storage.tsdb.path=${path.join(dir.dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
			{ stdio: 'ignore' },
		);
		const query = async (expression: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> => {
			const answer = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(expression)}`);
			const body = (await answer.json()) as { data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } };
			return body.data.result;
		};
		const deadline = Date.now() + 20_000;
		let up: Awaited<ReturnType<typeof query>> = [];
		while (Date.now() < deadline) {
			up = await query('up{job="revisit"}').catch(() => []);
			if (up[0]?.value[1] === '1') break;
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
		expect(up[0]?.value[1]).toBe('1');
		expect((await query('revisit_checks_total{reason="304"}'))[0]?.value[1]).toBe('7');
		expect((await query('revisit_bytes_total'))[0]?.value[1]).toBe('1200');
		expect((await query('revisit_queue_depth'))[0]?.metric).toMatchObject({ origin: 'https://a.test' });
		expect((await query('histogram_quantile(0.5, revisit_lateness_seconds_bucket)'))[0]?.value[1]).not.toBe('NaN');
	}, 40_000);
});
