// nginx serving static HTML pages for the sweep benches (bench/compare.js, bench/profile.js):
// gzip on, as a static site is usually served (200s gzipped, their ETags weak, Last-Modified
// from the files), one worker process, keep-alive without a request limit, on 127.0.0.1.
import fs from 'node:fs';
import path from 'node:path';
import { freePorts, runNginx } from './nginx-run.js';

const FILLER =
	Array.from({ length: 48 }, (_, i) => `<p>Paragraph ${i}: the quick brown fox jumps over the lazy dog, again and again.</p>\n`).join('') + '</body></html>\n';

/**
 * Writes `pages` pages of ~4 KB (`/p/0` …) under `scratch`/nginx and starts nginx on them.
 * Resolves to its base URL, a description and close().
 */
export async function startNginxStatic(pages, scratch) {
	const dir = path.join(scratch, 'nginx');
	fs.mkdirSync(path.join(dir, 'root', 'p'), { recursive: true });
	for (let n = 0; n < pages; n++) {
		fs.writeFileSync(
			path.join(dir, 'root', 'p', String(n)),
			`<!doctype html>\n<html><head><title>Page ${n}</title></head><body>\n<h1>Page ${n}</h1>\n${FILLER}`,
		);
	}
	const [port] = await freePorts(1);
	const nginx = await runNginx(
		dir,
		(t) => `	access_log off;
	default_type text/html;
	gzip on;
	keepalive_requests 1000000;
	keepalive_timeout 60s;
	server {
		listen 127.0.0.1:${port};
		root ${t('root')};
	}`,
		port,
		1024,
	);
	return {
		base: `http://127.0.0.1:${port}`,
		describe: `nginx/${nginx.version}, one worker process, gzip on, ${pages} static pages of ~4 KB`,
		close: () => nginx.close(),
	};
}
