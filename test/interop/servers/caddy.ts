import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { launch, type RunningServer } from './launch.js';

/**
 * Caddy serving `root` with `encode gzip` and `file_server`; no admin endpoint, no
 * automatic HTTPS, HOME and XDG dirs in the temp dir. Caddy 2.6 keeps the file's strong
 * ETag on the gzipped response (the same tag as the identity one).
 */
export function startCaddy(root: string): Promise<RunningServer> {
	return launch('caddy', root, async (dir, port) => {
		const conf = path.join(dir, 'Caddyfile');
		const home = path.join(dir, 'home');
		await Promise.all(['home', 'data', 'config'].map((name) => mkdir(path.join(dir, name), { recursive: true })));
		await writeFile(
			conf,
			`{
	admin off
	auto_https off
}
http://127.0.0.1:${port} {
	bind 127.0.0.1
	root * ${root}
	encode gzip
	file_server
}
`,
		);
		return {
			command: 'caddy',
			args: ['run', '--config', conf, '--adapter', 'caddyfile'],
			env: { HOME: home, XDG_DATA_HOME: path.join(dir, 'data'), XDG_CONFIG_HOME: path.join(dir, 'config') },
		};
	});
}
