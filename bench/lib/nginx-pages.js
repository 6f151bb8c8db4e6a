// An all-304 origin for the watch benches (watch-speed.js, watch-cluster.js): nginx (one
// worker) on `ports` of 127.0.0.1, answering GET /p/<n> with a short body and ETag "p<n>",
// 304 to If-None-Match with it, /robots.txt 404. Its access log has each request's time to
// the millisecond, its status and whether it was conditional: counts are read from it, not
// from the clients.
import fs from 'node:fs';
import { runNginx } from './nginx-run.js';

/** Starts nginx under `root` (a directory of its own); `mark()` then a call of what it returns reads the log lines written in between. */
export async function startNginxPages(root, ports) {
	const access = `${root}/access.log`;
	const nginx = await runNginx(
		root,
		() => `	log_format bench '$msec $status $request_uri c=$http_if_none_match';
	access_log ${access} bench buffer=256k flush=1s;
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
	}`,
		ports.at(-1),
		8192,
	);
	return {
		...nginx,
		mark() {
			const from = fs.existsSync(access) ? fs.statSync(access).size : 0;
			return async () => {
				await new Promise((resolve) => setTimeout(resolve, 1500)); // flush=1s
				const fd = fs.openSync(access, 'r');
				const size = fs.fstatSync(fd).size;
				const buffer = Buffer.alloc(size - from);
				fs.readSync(fd, buffer, 0, buffer.length, from);
				fs.closeSync(fd);
				return buffer
					.toString('latin1')
					.split('\n')
					.filter(Boolean)
					.map((line) => {
						const [msec, status, uri, conditional] = line.split(' ');
						return { ms: Number(msec) * 1000, status: Number(status), uri, conditional: conditional !== 'c=' && conditional !== 'c=-' };
					});
			};
		},
	};
}
