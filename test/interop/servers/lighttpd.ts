import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { launch, type RunningServer } from './launch.js';

/**
 * lighttpd serving `root` with mod_deflate (gzip only, compressed copies cached in the
 * temp dir). It appends "-gzip" to the ETag of a gzipped response and answers 304 to
 * that tag.
 */
export function startLighttpd(root: string): Promise<RunningServer> {
	return launch('lighttpd', root, async (dir, port) => {
		const conf = path.join(dir, 'lighttpd.conf');
		const cache = path.join(dir, 'deflate-cache');
		await mkdir(cache, { recursive: true });
		await writeFile(
			conf,
			`server.modules = ( "mod_deflate" )
server.document-root = "${root}"
server.bind = "127.0.0.1"
server.port = ${port}
server.pid-file = "${path.join(dir, 'lighttpd.pid')}"
server.errorlog = "${path.join(dir, 'error.log')}"
mimetype.assign = ( ".html" => "text/html", ".txt" => "text/plain" )
deflate.mimetypes = ( "text/html" )
deflate.allowed-encodings = ( "gzip" )
deflate.cache-dir = "${cache}"
`,
		);
		return { command: 'lighttpd', args: ['-D', '-f', conf] };
	});
}
