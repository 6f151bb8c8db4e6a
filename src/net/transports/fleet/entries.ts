import type { Reply } from './link.js';

/** A queue entry as a worker reads it: the stream entry id, and the attempt it carries. */
export interface Entry {
	entry: string;
	run: string;
	id: string;
	token: string;
	spec: string;
}

/**
 * Stream entries, `[[entry, [field, value, …]], …]` (from XREADGROUP's per-stream list
 * or XAUTOCLAIM's), as entries; a deleted entry (nil) is left out.
 *
 * @example
 * parseEntries([['1-0', ['run', 'r1', 'id', '7', 'token', '3', 'spec', '{}']]]) // [{ entry: '1-0', run: 'r1', ... }]
 */
export function parseEntries(items: Reply): Entry[] {
	if (!Array.isArray(items)) return [];
	const out: Entry[] = [];
	for (const item of items) {
		if (!Array.isArray(item)) continue;
		const [entry, fields] = item as [string, string[] | null];
		const value: Record<string, string> = {};
		for (let i = 0; i + 1 < (fields?.length ?? 0); i += 2) value[fields![i]!] = fields![i + 1]!;
		out.push({ entry, run: value.run ?? '', id: value.id ?? '', token: value.token ?? '', spec: value.spec ?? '{}' });
	}
	return out;
}

/**
 * Entries grouped by run, each group in queue order: a fleet script takes one run's lease hash at a time.
 *
 * @example
 * for (const [run, group] of byRun(entries)) await link.script(TAKE, [keys.queue, keys.lease(run)], ...);
 */
export function byRun(entries: Entry[]): Map<string, Entry[]> {
	const runs = new Map<string, Entry[]>();
	for (const entry of entries) runs.set(entry.run, [...(runs.get(entry.run) ?? []), entry]);
	return runs;
}
