import type { HostRecord, StoreOperation, StoreReader } from '../../store/model/types.js';
import { lowerAuditRate } from './audit-rate.js';
import { newHostRecord } from './record.js';

/**
 * The run's view of its hosts: loaded from the store the first time a host is met,
 * updated in memory as evidence arrives (so a host caught lying is distrusted for the
 * rest of the run at once), and written back with the commit batches.
 *
 * @example
 * const book = createHostBook(store, runStartedAt);
 * await book.load(['https://example.org']);
 * book.set(origin, observe(book.get(origin), observation, options, now));
 */
export interface HostBook {
	load(origins: readonly string[]): Promise<void>;
	get(origin: string): HostRecord;
	set(origin: string, host: HostRecord): void;
	/** putHost operations for the hosts changed since the last call. */
	drain(): StoreOperation[];
}

/** What the book needs of the run's options: `auditRate` (`--audit`) lowers hosts' own audit rates as they enter the run. */
export interface HostBookOptions {
	auditRate?: number | undefined;
}

export function createHostBook(store: StoreReader, runStartedAt: number, options: HostBookOptions = {}): HostBook {
	const hosts = new Map<string, HostRecord>();
	const dirty = new Set<string>();
	return {
		async load(origins) {
			const missing = [...new Set(origins)].filter((origin) => !hosts.has(origin));
			if (missing.length === 0) return;
			const stored = await store.getHosts(missing);
			missing.forEach((origin, i) => {
				// Another batch may have loaded it while we awaited.
				if (hosts.has(origin)) return;
				hosts.set(origin, enterRun(stored[i] ?? newHostRecord(runStartedAt), runStartedAt, options.auditRate ?? 0));
				dirty.add(origin);
			});
		},
		get(origin) {
			const host = hosts.get(origin);
			if (!host) throw new Error(`host ${origin} used before it was loaded`);
			return host;
		},
		set(origin, host) {
			hosts.set(origin, host);
			dirty.add(origin);
		},
		drain() {
			const operations: StoreOperation[] = [...dirty].map((origin) => ({ type: 'putHost', key: origin, value: hosts.get(origin)! }));
			dirty.clear();
			return operations;
		},
	};
}

/** The host as this run sees it: one more run, started now, how long since the last, and the audit rate it has earned. */
function enterRun(host: HostRecord, runStartedAt: number, auditRate: number): HostRecord {
	if (host.lastRunAt === runStartedAt) return host;
	const next: HostRecord = { ...lowerAuditRate(host, auditRate), runs: host.runs + 1, lastRunAt: runStartedAt };
	// How far ahead verification looks: the next run is likely as far off as the last one was.
	if (host.lastRunAt > 0 && runStartedAt > host.lastRunAt) next.runInterval = runStartedAt - host.lastRunAt;
	return next;
}
