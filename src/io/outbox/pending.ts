import type { StoreReader } from '../../store/model/types.js';
import { shownUrl } from '../../base/util/shown-url.js';

/** One target's deliveries waiting in a store. */
export interface PendingTarget {
	/** The target as it may be shown (no secrets). */
	shown: string;
	pending: number;
	/** When the oldest was committed, and the newest (epoch ms). */
	oldestAt: number;
	newestAt: number;
}

/** A stored `shown` (`notify URL`, `webhook ORIGIN`, `atom PATH`), masked again as read: one written by an older revisit may hold a query's secret. */
const reshown = (shown: string): string => {
	const space = shown.indexOf(' ');
	return space < 0 ? shown : `${shown.slice(0, space + 1)}${shownUrl(shown.slice(space + 1))}`;
};

/**
 * The deliveries waiting in a store, by target, in the order of the targets' ids: what
 * `revisit stats` lists. Reads every pending delivery once.
 *
 * @example
 * await pendingDeliveries(store) // [{ shown: 'notify json://127.0.0.1:8080/hook', pending: 3, oldestAt: …, newestAt: … }]
 */
export async function pendingDeliveries(store: StoreReader): Promise<PendingTarget[]> {
	const targets = new Map<string, PendingTarget>();
	for await (const [, delivery] of store.deliveryEntries()) {
		const target = targets.get(delivery.target);
		if (!target) targets.set(delivery.target, { shown: reshown(delivery.shown), pending: 1, oldestAt: delivery.at, newestAt: delivery.at });
		else {
			target.pending++;
			target.oldestAt = Math.min(target.oldestAt, delivery.at);
			target.newestAt = Math.max(target.newestAt, delivery.at);
		}
	}
	return [...targets.values()];
}
