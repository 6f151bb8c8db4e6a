import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { readRecord, sweepRun, useFixtures, verdictFor } from './fixtures.js';

/**
 * An HTTPS origin with a self-signed certificate (made here with openssl, valid for
 * 127.0.0.1): an error verdict with the TLS code unless --insecure.
 */
describe('sweep against a self-signed HTTPS server', () => {
	const fx = useFixtures();
	let certs: { dir: string; cleanup(): Promise<void> };
	let server: https.Server;
	let origin: string;
	const requests: string[] = [];
	let body = 'served over TLS';

	beforeAll(async () => {
		certs = await tempDir('revisit-tls-');
		const [key, cert] = [path.join(certs.dir, 'key.pem'), path.join(certs.dir, 'cert.pem')];
		await promisify(execFile)('openssl', [
			'req',
			'-x509',
			'-newkey',
			'ec',
			'-pkeyopt',
			'ec_paramgen_curve:prime256v1',
			'-nodes',
			'-days',
			'2',
			'-subj',
			'/CN=127.0.0.1',
			'-addext',
			'subjectAltName=IP:127.0.0.1',
			'-keyout',
			key,
			'-out',
			cert,
		]);
		server = https.createServer({ key: await readFile(key), cert: await readFile(cert) }, (req, res) => {
			requests.push(req.url ?? '');
			res.writeHead(200, { etag: `"${body.length}"` }).end(body);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
		await certs.cleanup();
	});

	it('refuses the certificate with a stable code, keeps the record, goes on; --insecure accepts it', async () => {
		const url = `${origin}/secure`;
		const plain = await fx.serve((req, res) => res.writeHead(200).end('plain http'));
		const fine = plain.url('/fine');

		// The earlier good run, with --insecure.
		const first = await sweepRun(fx.dir, [url, fine], ['--insecure']);
		expect(first.status).toBe(0);
		expect(verdictFor(first, url)).toMatchObject({ changed: true, reason: 'new', status: 200, etag: '"15"' });
		const before = await readRecord(fx.dir, url);
		expect(before).toMatchObject({ status: 200, etag: '"15"' });

		body = 'served over TLS, edited';
		const seen = requests.length;
		const run = await sweepRun(fx.dir, [url, fine], ['--retries', '2']);
		expect(run.status).toBe(1);
		expect(verdictFor(run, url)).toMatchObject({ changed: false, reason: 'error', error: { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' } });
		expect(verdictFor(run, fine)).toMatchObject({ changed: false, reason: 'same-hash' });
		expect(run.stderr).toContain(`${url}: DEPTH_ZERO_SELF_SIGNED_CERT: `);
		// The handshake failed, so no request reached the handler; a certificate error is not retried.
		expect(requests).toHaveLength(seen);
		expect(await readRecord(fx.dir, url)).toEqual(before);

		const insecure = await sweepRun(fx.dir, [url, fine], ['--insecure']);
		expect(insecure.status).toBe(0);
		expect(verdictFor(insecure, url)).toMatchObject({ changed: true, reason: 'new-body', status: 200, etag: '"23"' });
		expect(insecure.stderr).toBe('');
	});
});
