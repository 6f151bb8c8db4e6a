import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { launch, type RunningServer } from './launch.js';
import { startNginx } from './nginx.js';

/**
 * Varnish Cache in front of its own gzipping nginx, both serving `root`. Objects are
 * stored with ttl 0, no grace and a minute of keep: every request revalidates with
 * nginx by a conditional fetch (so an edit shows at once, never a stale copy), and
 * Varnish answers the client's conditional request itself from the refreshed object.
 * No management port (-T none); the work dir (-n) is in the temp dir. varnishd forks a
 * cache child, killed with the process group.
 */
export async function startVarnish(root: string): Promise<RunningServer> {
	const backend = await startNginx(root);
	try {
		const varnish = await launch('varnish', root, async (dir, port) => {
			const vcl = path.join(dir, 'default.vcl');
			const { hostname, port: backendPort } = new URL(backend.origin);
			await writeFile(
				vcl,
				`vcl 4.1;
backend default { .host = "${hostname}"; .port = "${backendPort}"; }
sub vcl_backend_response {
	set beresp.ttl = 0s;
	set beresp.grace = 0s;
	set beresp.keep = 1m;
	return (deliver);
}
`,
			);
			return {
				command: 'varnishd',
				args: ['-F', '-T', 'none', '-a', `127.0.0.1:${port}`, '-f', vcl, '-n', path.join(dir, 'work'), '-s', 'malloc,16m'],
			};
		});
		return {
			...varnish,
			stop: async () => {
				try {
					await varnish.stop();
				} finally {
					await backend.stop();
				}
			},
		};
	} catch (error) {
		await backend.stop();
		throw error;
	}
}
