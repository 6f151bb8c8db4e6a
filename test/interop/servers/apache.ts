import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { launch, type RunningServer } from './launch.js';

const MODULES = '/usr/lib/apache2/modules';

/**
 * Apache httpd (Debian apache2) serving `root` with mod_deflate in its default
 * configuration (DeflateAlterETag AddSuffix): a gzipped response's ETag gets "-gzip"
 * appended ("1192-661a1f6f3c8a9-gzip"), and an If-None-Match carrying that tag is not
 * answered 304; If-Modified-Since alone, or the tag without -gzip, is.
 */
export function startApache(root: string): Promise<RunningServer> {
	return launch('apache2', root, async (dir, port) => {
		const conf = path.join(dir, 'httpd.conf');
		// Apache refuses to run as root: as root it serves as www-data (the docroot and
		// temp dirs are world-readable); as anyone else, as that user.
		const user = process.getuid?.() === 0 ? 'User www-data\nGroup www-data\n' : '';
		const load = (name: string, file = name) => `LoadModule ${name}_module ${MODULES}/mod_${file}.so`;
		await writeFile(
			conf,
			`ServerRoot ${dir}
${load('mpm_event')}
${load('authz_core')}
${load('mime')}
${load('filter')}
${load('deflate')}
ServerName 127.0.0.1
Listen 127.0.0.1:${port}
DefaultRuntimeDir ${dir}
PidFile ${path.join(dir, 'httpd.pid')}
ErrorLog ${path.join(dir, 'error.log')}
Mutex file:${dir} default
${user}TypesConfig /dev/null
AddType text/html .html
AddType text/plain .txt
DocumentRoot ${root}
<Directory ${root}>
	Require all granted
</Directory>
AddOutputFilterByType DEFLATE text/html
`,
		);
		// -E: start-up errors go to the temp dir, not /var/log/apache2.
		return { command: 'apache2', args: ['-f', conf, '-DFOREGROUND', '-E', path.join(dir, 'startup.log')] };
	});
}
