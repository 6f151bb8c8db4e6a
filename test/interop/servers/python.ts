import { launch, type RunningServer } from './launch.js';

/**
 * Python's http.server serving `root`: Last-Modified only (no ETag), no compression,
 * 304 when the file is not newer than If-Modified-Since.
 */
export function startPython(root: string): Promise<RunningServer> {
	return launch('python3', root, async (_dir, port) => ({
		command: 'python3',
		args: ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', root],
		env: { PYTHONUNBUFFERED: '1' },
	}));
}
