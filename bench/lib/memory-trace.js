// Optional preload for `node bench/run.js --trace-memory`: every $REVISIT_BENCH_MEMTRACE_MS
// (default 2000) appends one JSON line to $REVISIT_BENCH_MEMTRACE with the process's
// memory figures. When the child runs with --expose-gc it also forces a full GC first, so
// `live*` is what is actually retained, as opposed to garbage V8 has not collected yet.
// The forced GCs change the run's timing and peak RSS: use it to explain a figure, not
// to measure one.
import { appendFileSync, readFileSync } from 'node:fs';

const target = process.env.REVISIT_BENCH_MEMTRACE;
if (target) {
	const every = Number(process.env.REVISIT_BENCH_MEMTRACE_MS ?? 2000);
	const started = performance.now();
	const hwm = () => {
		try {
			return Number(/^VmHWM:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) * 1024;
		} catch {
			return undefined;
		}
	};
	const sample = () => {
		const seen = process.memoryUsage();
		const line = {
			ms: Math.round(performance.now() - started),
			rss: seen.rss,
			hwm: hwm(),
			heapTotal: seen.heapTotal,
			heapUsed: seen.heapUsed,
			external: seen.external,
			arrayBuffers: seen.arrayBuffers,
		};
		if (typeof globalThis.gc === 'function') {
			globalThis.gc();
			const live = process.memoryUsage();
			Object.assign(line, { liveHeapUsed: live.heapUsed, liveExternal: live.external, rssAfterGc: live.rss });
		}
		appendFileSync(target, `${JSON.stringify(line)}\n`);
	};
	setInterval(sample, every).unref();
	process.on('exit', sample);
}
