import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** One request as the origin saw it: when it came (wall ms), its path and User-Agent. */
export interface TimedHit {
	at: number;
	path: string;
	agent: string;
}

export interface TimedOrigin {
	url(path: string): string;
	hits: TimedHit[];
	/** The most requests it had in flight at once. */
	readonly most: number;
}

const SCRIPT = fileURLToPath(new URL('../fixtures/timed-origins.mjs', import.meta.url));

/**
 * Starts `count` origins (each answering after `delayMs`, 304 to its own ETag) in a child
 * process of their own, which reads each request's arrival time: a test that holds a
 * crawler to gaps between requests under CPU load reads them where the load does not
 * delay the reading. Run by root, the process gets a higher priority (nice -10). `stop`
 * kills it by pid.
 *
 * @example
 * const { origins, stop } = await startTimedOrigins(3, 600);
 */
export async function startTimedOrigins(count: number, delayMs: number): Promise<{ origins: TimedOrigin[]; stop(): Promise<void> }> {
	const root = process.getuid?.() === 0;
	const command = root ? ['nice', '-n', '-10', process.execPath] : [process.execPath];
	const child = spawn(command[0]!, [...command.slice(1), SCRIPT, String(count), String(delayMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const origins: Array<TimedOrigin & { most: number }> = [];
	const lines = createInterface({ input: child.stdout! });
	await new Promise<void>((resolve, reject) => {
		child.once('exit', (code) => reject(new Error(`timed origins exited (${code}) before listening`)));
		lines.on('line', (text) => {
			const line = JSON.parse(text) as { ports?: number[]; origin?: number; at?: number; path?: string; agent?: string; inFlight?: number };
			if (line.ports) {
				for (const port of line.ports) origins.push({ url: (path) => `http://127.0.0.1:${port}${path}`, hits: [], most: 0 });
				resolve();
				return;
			}
			const origin = origins[line.origin!]!;
			origin.hits.push({ at: line.at!, path: line.path!, agent: line.agent! });
			origin.most = Math.max(origin.most, line.inFlight!);
		});
	});
	return {
		origins,
		async stop() {
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
			await exited;
		},
	};
}
