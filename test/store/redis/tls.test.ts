import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore } from '../../../src/store/open.js';
import { ndjson, spawnCli, tempDir } from '../../helpers/cli.js';
import { describeRedis, startRedis, type TestRedis } from '../../helpers/redis.js';

describeRedis('a Redis store over TLS (rediss://)', () => {
	let redis: TestRedis;
	let cert: string;
	let cleanup: () => Promise<void>;
	beforeAll(async () => {
		const temp = await tempDir('revisit-tls-');
		cleanup = temp.cleanup;
		cert = path.join(temp.dir, 'cert.pem');
		const key = path.join(temp.dir, 'key.pem');
		// A self-signed certificate for localhost and 127.0.0.1, good for a day.
		const subject = ['-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'];
		execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', ...subject], { stdio: 'ignore' });
		redis = await startRedis({ tls: { cert, key } });
	});
	afterAll(async () => {
		await redis?.stop();
		await cleanup?.();
	});

	it('moves a store through rediss:// when the CLI trusts the CA (NODE_EXTRA_CA_CERTS)', async () => {
		const url = redis.url('tls:');
		const dump = ['{"kind":"meta","format":1}', '{"kind":"url","key":"https://a.example/","value":{"v":1,"status":200,"etag":"\\"x\\"","lastChecked":5}}'].join(
			'\n',
		);
		const env = { NODE_EXTRA_CA_CERTS: cert };
		expect(await spawnCli(['import', '--store', url], dump, env).done).toMatchObject({ status: 0, stderr: 'revisit: imported 1 record\n' });
		const exported = await spawnCli(['export', '--store', url], '', env).done;
		expect(ndjson(exported.stdout).slice(1)).toEqual([{ kind: 'url', key: 'https://a.example/', value: { v: 1, status: 200, etag: '"x"', lastChecked: 5 } }]);
	});

	it('refuses an untrusted certificate at once, with STORE_OPEN_FAILED and a hint', async () => {
		const started = Date.now();
		await expect(openStore(redis.url('tls:'))).rejects.toMatchObject({
			code: 'STORE_OPEN_FAILED',
			message: expect.stringMatching(/certificate.*NODE_EXTRA_CA_CERTS/),
		});
		expect(Date.now() - started).toBeLessThan(3_000);
	});
});
