// Memory of a process's descendants (a browser and its renderers, utility and GPU processes),
// polled from /proc every 200 ms: the peak of the summed VmRSS (shared pages counted once per
// process, so an overcount) and of the summed Pss (shared pages split between the processes
// that map them), in kB, and the most descendants seen at once. Linux only.
import fs from 'node:fs';

const read = (file) => {
	try {
		return fs.readFileSync(file, 'utf8');
	} catch {
		return undefined; // Gone between the listing and the read.
	}
};
const kb = (text, name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text ?? '')?.[1] ?? 0);

/** The pids descended from `root` (not `root` itself). */
function descendants(root) {
	const children = new Map();
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		const stat = read(`/proc/${entry}/stat`);
		// The command may hold spaces and parentheses: the fields after the last ')' are fixed.
		const ppid = stat && Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
		if (!ppid) continue;
		if (!children.has(ppid)) children.set(ppid, []);
		children.get(ppid).push(Number(entry));
	}
	const found = [];
	const queue = [...(children.get(root) ?? [])];
	while (queue.length > 0) {
		const pid = queue.shift();
		found.push(pid);
		queue.push(...(children.get(pid) ?? []));
	}
	return found;
}

/**
 * @example
 * const tree = pollTreeRss(child.pid); await once(child, 'exit'); tree.stop(); tree.peaks.rss
 */
export function pollTreeRss(root) {
	const peaks = { rss: 0, pss: 0, processes: 0 };
	const poll = setInterval(() => {
		let rss = 0;
		let pss = 0;
		const pids = descendants(root);
		for (const pid of pids) {
			rss += kb(read(`/proc/${pid}/status`), 'VmRSS');
			pss += kb(read(`/proc/${pid}/smaps_rollup`), 'Pss');
		}
		peaks.rss = Math.max(peaks.rss, rss);
		peaks.pss = Math.max(peaks.pss, pss);
		peaks.processes = Math.max(peaks.processes, pids.length);
	}, 200);
	return { peaks, stop: () => clearInterval(poll) };
}
