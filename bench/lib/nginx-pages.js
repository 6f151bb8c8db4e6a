// An all-304 origin for the watch benches: nginx (one worker) on `ports` of 127.0.0.1,
// answering GET /p/<n> with a short body and ETag "p<n>", 304 to If-None-Match with it,
// /robots.txt 404. Its access log has each request's time to the millisecond, its status
// and whether it was conditional: counts are read from it, not from the clients.
// (bench/watch-speed.js has the same server inline.)
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** Starts nginx under `root` (a directory of its own); `mark()` then a call of what it returns reads the log lines written in between. */
export async function startNginxPages(root, ports) {
	fs.mkdirSync(root, { recursive: true });
	const t = (name) => path.join(root, name);
	const access = t('access.log');
	fs.writeFileSync(
		t('nginx.conf'),
		`daemon off;
master_process off;
pid ${t('nginx.pid')};
error_log ${t('error.log')} warn;
events { worker_connections 8192; }
http {
	log_format bench '$msec $status $request_uri c=$http_if_none_match';
	access_log ${access} bench buffer=256k flush=1s;
	client_body_temp_path ${t('client_body')};
	proxy_temp_path ${t('proxy')};
	fastcgi_temp_path ${t('fastcgi')};
	uwsgi_temp_path ${t('uwsgi')};
	scgi_temp_path ${t('scgi')};
	default_type text/plain;
	keepalive_requests 10000000;
	keepalive_timeout 120s;
	server {
${ports.map((port) => `		listen 127.0.0.1:${port};`).join('\n')}
		location = /robots.txt { return 404; }
		location ~ ^/p/(\\d+)$ {
			set $tag '"p$1"';
			add_header ETag $tag always;
			if ($http_if_none_match = $tag) { return 304; }
			return 200 "bench page $1\\n";
		}
		location / { return 404; }
	}
}
`,
	);
	const child = spawn('nginx', ['-c', t('nginx.conf'), '-p', `${root}/`, '-e', t('error.log')], { stdio: 'ignore' });
	for (let i = 0; ; i++) {
		const up = await new Promise((resolve) => net.connect(ports.at(-1), '127.0.0.1').once('connect', function () { this.destroy(); resolve(true); }).once('error', () => resolve(false)));
		if (up) break;
		if (i > 100 || child.exitCode !== null) throw new Error(`nginx did not start: ${fs.existsSync(t('error.log')) ? fs.readFileSync(t('error.log'), 'utf8') : ''}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	return {
		pid: child.pid,
		version: spawnSync('nginx', ['-v'], { encoding: 'utf8' }).stderr.trim().replace(/^nginx version: nginx\//, ''),
		mark() {
			const from = fs.existsSync(access) ? fs.statSync(access).size : 0;
			return async () => {
				await new Promise((resolve) => setTimeout(resolve, 1500)); // flush=1s
				const fd = fs.openSync(access, 'r');
				const size = fs.fstatSync(fd).size;
				const buffer = Buffer.alloc(size - from);
				fs.readSync(fd, buffer, 0, buffer.length, from);
				fs.closeSync(fd);
				return buffer.toString('latin1').split('\n').filter(Boolean).map((line) => {
					const [msec, status, uri, conditional] = line.split(' ');
					return { ms: Number(msec) * 1000, status: Number(status), uri, conditional: conditional !== 'c=' && conditional !== 'c=-' };
				});
			};
		},
		async close() {
			child.kill('SIGTERM');
			if (child.exitCode === null) await once(child, 'exit');
		},
	};
}
