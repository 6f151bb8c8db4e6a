import type { StoreReader, StoreWriter } from '../../store/model/types.js';
import { outboxTargets, type OutboxFeeds, type OutboxTarget } from './targets.js';
import { newRunId } from './enqueue.js';
import { startDeliveries, type Deliveries, type DeliveryOptions } from './worker.js';

/** A run's outbox: its targets, and the worker that delivers to them. */
export interface Outbox {
	targets: readonly OutboxTarget[];
	/** This process's part of its delivery keys (enqueue.ts). */
	run: string;
	/** Tells the worker a delivery was made for a target (see `Deliveries.queued`). */
	queued(target: string): void;
	deliveries: Deliveries;
}

/** Seven days: what `--delivery-max-age` is when not given. */
export const DELIVERY_MAX_AGE_MS = 7 * 86_400_000;

/**
 * The outbox of a run's feeds over its opened store, its worker started; undefined when
 * the run tells nobody. A sweep gives `attempts` (4: a target that keeps failing ends it
 * with SINK_FAILED) and a backoff of half a second; a watch retries for as long as
 * `deliveryMaxAgeMs`. On a store several processes share (`shared`: Redis), each sends the
 * deliveries it made, those made before it started, and another's once they are two
 * minutes old, so that a fleet does not send each change once per member.
 *
 * @example
 * const outbox = openOutbox(store, shape.feeds, { diagnose: edges.diagnose });
 * try { … composeRun(deps, shape, edges, outbox) … await outbox?.deliveries.drain(); } finally { await outbox?.deliveries.stop(); }
 */
export function openOutbox(
	store: StoreReader & StoreWriter,
	feeds: (OutboxFeeds & { deliveryMaxAgeMs?: number | undefined }) | undefined,
	options: Omit<DeliveryOptions, 'maxAgeMs' | 'shared'> & { shared?: boolean | undefined },
): Outbox | undefined {
	const targets = outboxTargets(feeds);
	if (targets.length === 0) return undefined;
	const run = newRunId();
	const shared = options.shared ? { run, adoptAfterMs: ADOPT_AFTER_MS } : undefined;
	const deliveries = startDeliveries(store, targets, { ...options, shared, maxAgeMs: feeds?.deliveryMaxAgeMs ?? DELIVERY_MAX_AGE_MS });
	return { targets, run, queued: (target) => deliveries.queued(target), deliveries };
}

/** On a shared store, how long a process leaves another's deliveries before it takes them (that one may have died): well past a commit and an attempt. */
const ADOPT_AFTER_MS = 120_000;
