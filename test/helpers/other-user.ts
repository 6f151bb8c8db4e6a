import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** The uid and gid of `nobody`, the other local user the guards are tried as. */
export const NOBODY = 65534;

/** Only root can run a process as another uid: the tests that need one run where the suite runs as root (CI does). */
export const AS_ROOT = process.getuid?.() === 0;

/**
 * Runs `script` with this Node as `nobody` (util-linux's setpriv: another uid, no
 * groups), from `/` so that no directory of the test's is its working one, and resolves
 * to what it printed on stdout.
 *
 * @example
 * const out = await asNobody('console.log(process.getuid())'); // '65534\n'
 */
export async function asNobody(script: string, args: string[] = []): Promise<string> {
	const { stdout } = await promisify(execFile)(
		'setpriv',
		[`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath, '--input-type=module', '-e', script, ...args],
		{ cwd: '/', timeout: 60_000 },
	);
	return stdout;
}

/**
 * A script for `asNobody` that asks the proxy at `argv[1]` for the URL `argv[2]` (GET, in
 * absolute form) and for a CONNECT tunnel to `argv[3]`, with no credential, and prints
 * both status lines as JSON: `{"get":"HTTP/1.1 407 …","connect":"HTTP/1.1 407 …"}`.
 */
export const ASK_PROXY = `
import net from 'node:net';
const [proxy, url, authority] = process.argv.slice(1);
const at = new URL(proxy);
const ask = (text) => new Promise((resolve) => {
	const socket = net.connect(Number(at.port), at.hostname, () => socket.write(text));
	let got = '';
	socket.on('data', (chunk) => { got += chunk.toString('latin1'); if (got.includes('\\r\\n')) { socket.destroy(); resolve(got.split('\\r\\n')[0]); } });
	socket.on('error', (error) => resolve('error ' + error.code));
	socket.on('close', () => resolve(got.split('\\r\\n')[0] || 'closed'));
});
const get = await ask('GET ' + url + ' HTTP/1.1\\r\\nhost: ' + new URL(url).host + '\\r\\nconnection: close\\r\\n\\r\\n');
const connect = await ask('CONNECT ' + authority + ' HTTP/1.1\\r\\nhost: ' + authority + '\\r\\n\\r\\n');
console.log(JSON.stringify({ get, connect }));
`;
