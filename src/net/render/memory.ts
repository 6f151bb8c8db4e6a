import { readdirSync, readFileSync } from 'node:fs';

/** How often the renderers' memory is read while a page renders. */
const POLL_MS = 100;

/** Renderer processes of the browser whose process group is `group`, with their resident memory in bytes. */
export function renderers(group: number): Array<{ pid: number; rss: number }> {
	const found: Array<{ pid: number; rss: number }> = [];
	let entries: string[];
	try {
		entries = readdirSync('/proc');
	} catch {
		return found;
	}
	for (const entry of entries) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
			// The command may hold spaces and parentheses: the fields after it are counted from its last ')'.
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (Number(fields[2]) !== group) continue;
			if (!readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes('--type=renderer')) continue;
			const pages = Number(readFileSync(`/proc/${entry}/statm`, 'latin1').split(' ')[1]);
			found.push({ pid: Number(entry), rss: pages * 4096 });
		} catch {
			// Gone meanwhile, or not ours to read.
		}
	}
	return found;
}

/** Kills renderers that grow past a cap, and says whether a page's crash came from such a kill. */
export interface MemoryWatch {
	/** A page is rendering: watch while any is. Call the function it returns when the page is done. */
	hold(): () => void;
	/** Whether a renderer was killed for its memory since `since` (performance.now()): a page that started before it and crashed. */
	killedSince(since: number): boolean;
	/** The largest renderer seen, in bytes (bench/ and the tests read it). */
	readonly peak: number;
	/** Renderers killed for their memory. */
	readonly kills: number;
	stop(): void;
}

/**
 * Watches the renderer processes of the browser led by `group` (Playwright starts it as a
 * process group's leader) while pages render, and SIGKILLs any whose resident memory
 * passes `capBytes`: the page gets a `crash`, which the render reports as RENDER_TOO_LARGE.
 * The browser and the other renderers live on. Linux only: where /proc cannot be read,
 * nothing is watched.
 *
 * @example
 * const memory = watchMemory(live.pid, 1024 ** 3); const done = memory.hold(); … done();
 */
export function watchMemory(group: number | undefined, capBytes: number): MemoryWatch {
	let holders = 0;
	let timer: NodeJS.Timeout | undefined;
	let lastKill = Number.NEGATIVE_INFINITY;
	const watch = { peak: 0, kills: 0 };
	const poll = () => {
		if (group === undefined) return;
		for (const renderer of renderers(group)) {
			watch.peak = Math.max(watch.peak, renderer.rss);
			if (renderer.rss <= capBytes) continue;
			try {
				process.kill(renderer.pid, 'SIGKILL');
				watch.kills++;
				lastKill = performance.now();
			} catch {
				// Gone already.
			}
		}
	};
	return {
		hold() {
			holders++;
			timer ??= setInterval(poll, POLL_MS);
			timer.unref();
			let done = false;
			return () => {
				if (done) return;
				done = true;
				if (--holders === 0 && timer) {
					clearInterval(timer);
					timer = undefined;
				}
			};
		},
		killedSince: (since) => lastKill >= since,
		get peak() {
			return watch.peak;
		},
		get kills() {
			return watch.kills;
		},
		stop() {
			if (timer) clearInterval(timer);
			timer = undefined;
		},
	};
}
