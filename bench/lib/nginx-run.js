// Runs Debian's nginx for a bench: one process (no master, no daemon), its files under a
// directory of its own, listening on 127.0.0.1; the benches' origins (nginx-pages.js,
// nginx-static.js) give it their `http { … }` block's inside.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** Free ports of 127.0.0.1, `count` of them. */
export async function freePorts(count) {
	const ports = [];
	while (ports.length < count) {
		const server = net.createServer();
		await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
		ports.push(server.address().port);
		await new Promise((resolve) => server.close(resolve));
	}
	return ports;
}

/**
 * Starts nginx under `root` with `http` (a function of `t`, which names a file under root)
 * as its http block's inside, once `port` answers; resolves to its version and close().
 *
 * @example
 * const nginx = await runNginx(dir, (t) => `server { listen 127.0.0.1:${port}; root ${t('root')}; }`, port, 1024);
 */
export async function runNginx(root, http, port, connections) {
	fs.mkdirSync(root, { recursive: true });
	const t = (name) => path.join(root, name);
	fs.writeFileSync(
		t('nginx.conf'),
		`daemon off;
master_process off;
pid ${t('nginx.pid')};
error_log ${t('error.log')} warn;
events { worker_connections ${connections}; }
http {
	client_body_temp_path ${t('client_body')};
	proxy_temp_path ${t('proxy')};
	fastcgi_temp_path ${t('fastcgi')};
	uwsgi_temp_path ${t('uwsgi')};
	scgi_temp_path ${t('scgi')};
${http(t)}
}
`,
	);
	const child = spawn('nginx', ['-c', t('nginx.conf'), '-p', `${root}/`, '-e', t('error.log')], { stdio: 'ignore' });
	for (let i = 0; ; i++) {
		const up = await new Promise((resolve) =>
			net
				.connect(port, '127.0.0.1')
				.once('connect', function () {
					this.destroy();
					resolve(true);
				})
				.once('error', () => resolve(false)),
		);
		if (up) break;
		if (i > 100 || child.exitCode !== null)
			throw new Error(`nginx did not start: ${fs.existsSync(t('error.log')) ? fs.readFileSync(t('error.log'), 'utf8') : ''}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	return {
		pid: child.pid,
		version: spawnSync('nginx', ['-v'], { encoding: 'utf8' })
			.stderr.trim()
			.replace(/^nginx version: nginx\//, ''),
		async close() {
			child.kill('SIGTERM');
			if (child.exitCode === null) await once(child, 'exit');
		},
	};
}
