import type { Reason } from '../domain/task/types.js';
import type { StoreReader } from '../store/model/types.js';
import { listen, type ListenAddress } from './listen.js';
import { createWatchMetrics } from './metrics.js';
import type { WatchObserver } from './run.js';
import type { TargetStatus } from '../io/outbox/worker.js';

/** How long the schedule may go unread before /healthz says the watch is unwell (wall ms). */
const STALE_MS = 30_000;
/** How long a delivery may wait before /healthz says the watch is degraded (wall ms). */
const LATE_DELIVERY_MS = 60_000;

/** `degraded`'s reason: the targets whose oldest pending delivery waited past a minute, named without their secrets; undefined when none. */
function lateDeliveries(targets: readonly TargetStatus[], now: number): string | undefined {
	const late = targets.filter((target) => target.oldestAt !== undefined && now - target.oldestAt > LATE_DELIVERY_MS);
	if (late.length === 0) return undefined;
	return late
		.map(
			(target) =>
				`${target.shown}: ${target.pending} deliver${target.pending === 1 ? 'y' : 'ies'} pending for ${Math.round((now - target.oldestAt!) / 1000)} ` +
				`s${target.failing ? ` (${target.failing.problem})` : ''}`,
		)
		.join('; ');
}

/** Runs (hours of the schedule) the live report page covers. */
const REPORT_RUNS = 24;

/**
 * `--listen`: the watch's metrics (metrics.ts), fed by the watch's observer, and the
 * server that shows them with /healthz and the live report page (listen.ts). Unwell
 * once the schedule has not been read for 30 s: the store is down, or the loop is stuck.
 *
 * @example
 * const { observer, close } = await observeWatch({ host: '127.0.0.1', port: 9464 }, { store, source: '.revisit', scale: 1 });
 */
export async function observeWatch(
	where: ListenAddress,
	context: {
		store: StoreReader;
		source: string;
		scale: number;
		hosts?: readonly string[] | undefined;
		deliveries?: (() => TargetStatus[]) | undefined;
		onListening?(address: ListenAddress): void;
	},
): Promise<{ observer: WatchObserver; close(): Promise<void> }> {
	const metrics = createWatchMetrics({ deliveries: context.deliveries });
	let readAt = Date.now();
	let sent = 0;
	let window = Date.now();
	const server = await listen(where, {
		metrics,
		health: () => {
			const idle = Date.now() - readAt;
			if (idle > STALE_MS) return { ok: false, reason: `the schedule has not been read for ${Math.round(idle / 1000)} s` };
			return { ok: true, degraded: lateDeliveries(context.deliveries?.() ?? [], Date.now()) };
		},
		report: { store: context.store, source: context.source, runs: REPORT_RUNS },
		hosts: context.hosts,
	});
	context.onListening?.(server.address);
	const observer: WatchObserver = {
		check: (task) => {
			if (!task.verdict) return;
			sent++;
			metrics.check(task.verdict.reason as Reason, task.verdict.bytes ?? 0, task.verdict.changed);
		},
		late: (seconds) => metrics.late(seconds),
		queue: (stats) => {
			readAt = Date.now();
			metrics.queue(stats, stats.depths);
		},
		model: (figures) => {
			const now = Date.now();
			// Checks a second of the schedule's clock over the last update's window.
			const rate = now > window ? (sent * 1000) / (now - window) / context.scale : 0;
			sent = 0;
			window = now;
			metrics.model({ mu: figures.mu, freshness: figures.freshness, target: figures.target, rate });
		},
	};
	return { observer, close: () => server.close() };
}
