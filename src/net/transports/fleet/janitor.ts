import { byRun, parseEntries } from './entries.js';
import { WORKER_GROUP, type FleetKeys } from './keys.js';
import type { FleetLink, Reply } from './link.js';
import { CLEAR } from './scripts.js';

/** Pending entries looked at per XAUTOCLAIM, and rounds per pass (a pass stops at 1,000). */
const PAGE = 100;
const ROUNDS = 10;

/**
 * Deletes queue entries that nothing will ever answer. A worker that dies holds its
 * entries in the group's pending list; the coordinator normally reclaims them when their
 * lease ends (deleting the old entry), but a coordinator that died too never will, and
 * its run's lease hash expires. Entries pending longer than `idleMs` are claimed by
 * `consumer` (JUSTID would not return the fields that name their run) and deleted when
 * their run no longer holds their token. A live one is left where it is: only its
 * owner in the group changes, which nothing relies on (answers and reclaims ack by entry
 * id). Returns how many were deleted.
 *
 * @example
 * await clearStale(link, fleetKeys(target), 'worker-1', 300_000) // 0 on a healthy fleet
 */
export async function clearStale(link: FleetLink, keys: FleetKeys, consumer: string, idleMs: number): Promise<number> {
	let cursor = '0-0';
	let dropped = 0;
	for (let round = 0; round < ROUNDS; round++) {
		const reply = (await link.call(keys.queue, ['XAUTOCLAIM', keys.queue, WORKER_GROUP, consumer, String(idleMs), cursor, 'COUNT', String(PAGE)])) as Reply[];
		for (const [run, group] of byRun(parseEntries(reply[1] ?? []))) {
			dropped += Number(
				await link.script(
					CLEAR,
					[keys.queue, keys.lease(run)],
					group.flatMap((entry) => [entry.id, entry.token, entry.entry]),
				),
			);
		}
		cursor = String(reply[0]);
		if (cursor === '0-0') break;
	}
	return dropped;
}
