import { existsSync } from 'node:fs';
import path from 'node:path';
import { findBinary, type RunningServer } from './servers/launch.js';
import { startApache } from './servers/apache.js';
import { startCaddy } from './servers/caddy.js';
import { startH2o } from './servers/h2o.js';
import { startLighttpd } from './servers/lighttpd.js';
import { startNginx } from './servers/nginx.js';
import { startPython } from './servers/python.js';
import { startVarnish } from './servers/varnish.js';

export type { RunningServer } from './servers/launch.js';

/** One real web server under test: the programs it needs, their Debian packages, and how to start it on a docroot. */
export interface ServerSpec {
	name: string;
	/** Program name (or absolute path of a file, such as a module) → the Debian package that provides it. */
	needs: Record<string, string>;
	/** How it is set up, for the report. */
	setup: string;
	start(root: string): Promise<RunningServer>;
}

export const SERVERS: readonly ServerSpec[] = [
	{ name: 'nginx', needs: { nginx: 'nginx-light' }, setup: 'gzip on', start: startNginx },
	{ name: 'apache2', needs: { apache2: 'apache2' }, setup: 'mod_deflate, DEFLATE text/html, DeflateAlterETag default (AddSuffix)', start: startApache },
	{
		name: 'lighttpd',
		needs: { lighttpd: 'lighttpd', '/usr/lib/lighttpd/mod_deflate.so': 'lighttpd-mod-deflate' },
		setup: 'mod_deflate, gzip',
		start: startLighttpd,
	},
	{ name: 'caddy', needs: { caddy: 'caddy' }, setup: 'encode gzip, file_server', start: startCaddy },
	{ name: 'h2o', needs: { h2o: 'h2o' }, setup: 'compress: [gzip]', start: startH2o },
	{
		name: 'varnish',
		needs: { varnishd: 'varnish', nginx: 'nginx-light' },
		setup: 'in front of nginx (gzip on); ttl 0, keep 1m: revalidates every request',
		start: startVarnish,
	},
	{ name: 'python http.server', needs: { python3: 'python3' }, setup: 'python3 -m http.server', start: startPython },
];

/** The install command for every server (lighttpd-mod-deflate comes as a Recommends of lighttpd). */
export const INSTALL = 'apt-get install -y nginx-light apache2 lighttpd caddy h2o varnish';

/** The install command naming python3 too when it is among `missing`: Debian's minimal images lack it. */
export const installCommand = (missing: string[]): string => (missing.includes('python3') ? `${INSTALL} python3` : INSTALL);

/** The Debian packages whose programs (or files) `spec` needs and this machine lacks. */
export function missingPackages(spec: ServerSpec): string[] {
	const present = (need: string) => (path.isAbsolute(need) ? existsSync(need) : findBinary(need) !== undefined);
	return Object.entries(spec.needs)
		.filter(([need]) => !present(need))
		.map(([, pkg]) => pkg);
}
