/** How a coordinator runs its part of a fleet; see docs/14-scaling-out.md. */
export interface FleetOptions {
	/** How long a worker may hold an attempt it took before it is handed to another. */
	leaseMs: number;
	/** Hand-outs of one attempt, taken and never answered, before it is an error verdict. */
	maxDeliveries: number;
	/** How long Redis may stay unreachable before the run ends with FLEET_UNREACHABLE (exit 2). */
	redisTimeoutMs: number;
	/** A run's keys live this long past the coordinator's last heartbeat. */
	runTtlMs: number;
	/**
	 * Requests in flight per origin across every run on this fleet (permits.ts); absent, each
	 * run keeps only its own `--per-host`.
	 */
	perHost?: number | undefined;
}

/**
 * Defaults that follow from the run: a lease outlives a whole attempt (`timeoutMs`) by 10 s.
 *
 * @example
 * fleetDefaults(15_000) // { leaseMs: 25_000, maxDeliveries: 3, redisTimeoutMs: 30_000, runTtlMs: 60_000 }
 */
export function fleetDefaults(timeoutMs: number): FleetOptions {
	return { leaseMs: timeoutMs + 10_000, maxDeliveries: 3, redisTimeoutMs: 30_000, runTtlMs: 60_000 };
}
