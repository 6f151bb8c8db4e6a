import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { launch, type RunningServer } from './launch.js';

/**
 * nginx (Debian nginx-light) serving `root` with gzip on. text/html is always in
 * gzip_types (listing it again only earns a warning). nginx turns a file's strong ETag
 * weak (W/"…") on a gzipped response, and compares weakly for If-None-Match.
 */
export function startNginx(root: string): Promise<RunningServer> {
	return launch('nginx', root, async (dir, port) => {
		const conf = path.join(dir, 'nginx.conf');
		const temp = (name: string) => path.join(dir, name);
		await writeFile(
			conf,
			`daemon off;
master_process on;
worker_processes 1;
pid ${temp('nginx.pid')};
error_log ${temp('error.log')} warn;
events { worker_connections 256; }
http {
	access_log off;
	client_body_temp_path ${temp('client_body')};
	proxy_temp_path ${temp('proxy')};
	fastcgi_temp_path ${temp('fastcgi')};
	uwsgi_temp_path ${temp('uwsgi')};
	scgi_temp_path ${temp('scgi')};
	types { text/html html; text/plain txt; }
	default_type application/octet-stream;
	gzip on;
	gzip_types text/plain text/css;
	server {
		listen 127.0.0.1:${port};
		root ${root};
	}
}
`,
		);
		// -e: errors before the config is read go here too, not to /var/log/nginx.
		return { command: 'nginx', args: ['-c', conf, '-p', `${dir}/`, '-e', temp('error.log')] };
	});
}
