// The parent's side of peak RSS (bench/lib/peak-rss.js is the child's): polls
// /proc/<pid>/status every 100 ms for RssAnon, RssFile and VmHWM, keeping the peaks (kB).
import fs from 'node:fs';

/**
 * @example
 * const rss = pollRss(child.pid); await once(child, 'exit'); rss.stop(); rss.peaks.hwm
 */
export function pollRss(pid) {
	const peaks = { anon: 0, file: 0, hwm: 0 };
	const poll = setInterval(() => {
		try {
			const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
			const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
			peaks.anon = Math.max(peaks.anon, kb('RssAnon'));
			peaks.file = Math.max(peaks.file, kb('RssFile'));
			peaks.hwm = Math.max(peaks.hwm, kb('VmHWM'));
		} catch {
			// Gone: the figures so far stand.
		}
	}, 100);
	return { peaks, stop: () => clearInterval(poll) };
}
