import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { launch, type RunningServer } from './launch.js';

/**
 * h2o serving `root` over plain HTTP with on-the-fly gzip. No pid file: as root h2o
 * switches to nobody before writing it. It keeps the file's strong ETag on the gzipped
 * response. Its crash handler (a perl helper) runs in the same process group.
 */
export function startH2o(root: string): Promise<RunningServer> {
	return launch('h2o', root, async (dir, port) => {
		const conf = path.join(dir, 'h2o.conf');
		await writeFile(
			conf,
			`listen:
  host: 127.0.0.1
  port: ${port}
error-log: ${path.join(dir, 'error.log')}
compress: [gzip]
file.mime.addtypes:
  text/html: .html
hosts:
  "127.0.0.1:${port}":
    paths:
      /:
        file.dir: ${root}
`,
		);
		return { command: 'h2o', args: ['-c', conf] };
	});
}
