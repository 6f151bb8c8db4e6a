// Preloaded into every measured child (`node --import ./bench/lib/peak-rss.js ...`): at
// exit, writes the process's own peak RSS and CPU time to $REVISIT_BENCH_STATS, as JSON.
// Reading at exit is exact, where polling /proc/<pid>/status from outside can miss the
// last few milliseconds; bench/run.js does both and keeps the larger figure.
// VmHWM comes from /proc (Linux); resourceUsage().maxRSS (getrusage) works everywhere.
import { readFileSync, writeFileSync } from 'node:fs';

const target = process.env.REVISIT_BENCH_STATS;
if (target) {
	process.on('exit', () => {
		let vmHwmKb;
		try {
			const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
			if (match) vmHwmKb = Number(match[1]);
		} catch {
			// Not Linux: maxRssKb below still applies.
		}
		const cpu = process.cpuUsage();
		writeFileSync(target, JSON.stringify({ vmHwmKb, maxRssKb: process.resourceUsage().maxRSS, cpuUserMs: cpu.user / 1000, cpuSystemMs: cpu.system / 1000 }));
	});
}
