// nginx serving static HTML pages for the sweep benches (bench/compare.js, bench/profile.js):
// gzip on, as a static site is usually served (200s gzipped, their ETags weak, Last-Modified
// from the files), one worker process, keep-alive without a request limit, on 127.0.0.1.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

async function freePort() {
	const server = net.createServer();
	await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	await new Promise((resolve) => server.close(resolve));
	return port;
}

const FILLER = Array.from({ length: 48 }, (_, i) => `<p>Paragraph ${i}: the quick brown fox jumps over the lazy dog, again and again.</p>\n`).join('') + '</body></html>\n';

/**
 * Writes `pages` pages of ~4 KB (`/p/0` …) under `scratch`/nginx and starts nginx on them.
 * Resolves to its base URL, a description and close().
 */
export async function startNginxStatic(pages, scratch) {
	const dir = path.join(scratch, 'nginx');
	fs.mkdirSync(path.join(dir, 'root', 'p'), { recursive: true });
	for (let n = 0; n < pages; n++) {
		fs.writeFileSync(path.join(dir, 'root', 'p', String(n)), `<!doctype html>\n<html><head><title>Page ${n}</title></head><body>\n<h1>Page ${n}</h1>\n${FILLER}`);
	}
	const port = await freePort();
	const t = (name) => path.join(dir, name);
	fs.writeFileSync(
		t('nginx.conf'),
		`daemon off;
master_process off;
pid ${t('nginx.pid')};
error_log ${t('error.log')} warn;
events { worker_connections 1024; }
http {
	access_log off;
	client_body_temp_path ${t('client_body')};
	proxy_temp_path ${t('proxy')};
	fastcgi_temp_path ${t('fastcgi')};
	uwsgi_temp_path ${t('uwsgi')};
	scgi_temp_path ${t('scgi')};
	default_type text/html;
	gzip on;
	keepalive_requests 1000000;
	keepalive_timeout 60s;
	server {
		listen 127.0.0.1:${port};
		root ${t('root')};
	}
}
`,
	);
	const child = spawn('nginx', ['-c', t('nginx.conf'), '-p', `${dir}/`, '-e', t('error.log')], { stdio: 'ignore' });
	for (let i = 0; ; i++) {
		const up = await new Promise((resolve) => net.connect(port, '127.0.0.1').once('connect', function () { this.destroy(); resolve(true); }).once('error', () => resolve(false)));
		if (up) break;
		if (i > 100 || child.exitCode !== null) throw new Error(`nginx did not start: ${fs.existsSync(t('error.log')) ? fs.readFileSync(t('error.log'), 'utf8') : ''}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	return {
		base: `http://127.0.0.1:${port}`,
		describe: `nginx ${spawnSync('nginx', ['-v'], { encoding: 'utf8' }).stderr.trim().replace(/^nginx version: /, '')}, one worker process, gzip on, ${pages} static pages of ~4 KB`,
		close: async () => {
			child.kill('SIGTERM');
			if (child.exitCode === null) await once(child, 'exit');
		},
	};
}

