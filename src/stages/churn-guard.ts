import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import type { Task } from '../types.js';

export interface ChurnGuardOptions {
	/** Fraction of a host's known URLs that, changed in one run, blocks the host; 0 turns the guard off. */
	maxChurn: number;
	/** Known URLs of a host to see before deciding. */
	churnMin: number;
	/** Hosts let through (origins or hostnames), or 'all'. */
	accept: readonly string[] | 'all';
	/** Most tasks held across all hosts while undecided; past it the oldest host is let through undecided. */
	maxBuffered?: number;
}

export interface ChurnGuardHooks {
	/** The guard decided on a host: blocked when `changed` of its first `probed` known URLs changed. */
	onDecision(origin: string, decision: { blocked: boolean; changed: number; probed: number }): void;
	/** A task went into a buffer: give its backpressure credit back so the reader is not starved. */
	release?(): void;
}

interface HostState {
	buffer: Task[];
	changed: number;
	decided?: 'pass' | 'blocked';
}

/**
 * Holds back a host's changes when nearly all its known URLs changed in one run (a
 * template deploy or a block page, not real change). It buffers a host's first
 * `churnMin` verdicts on known URLs, decides, then streams. A blocked host's changes are
 * neither emitted nor committed (they become `held`), so the next run reports them again.
 *
 * @example
 * tasks$.pipe(compare(...), churnGuard({ maxChurn: 0.9, churnMin: 20, accept: [] }, { onBlocked }))
 */
export function churnGuard(options: ChurnGuardOptions, hooks: ChurnGuardHooks): MonoTypeOperatorFunction<Task> {
	const { maxChurn, churnMin, accept } = options;
	const maxBuffered = options.maxBuffered ?? 50_000;
	if (!(maxChurn >= 0 && maxChurn <= 1)) throw new TypeError(`Expected \`maxChurn\` between 0 and 1, got \`${maxChurn}\``);
	if (!Number.isInteger(churnMin) || churnMin < 1) throw new TypeError(`Expected \`churnMin\` to be a positive integer, got \`${churnMin}\``);
	if (maxChurn === 0) return (source) => source;
	const accepted = (origin: string) => accept === 'all' || accept.some((host) => host === origin || host.toLowerCase() === new URL(origin).hostname);

	return (source) =>
		new Observable<Task>((subscriber) => {
			const hosts = new Map<string, HostState>();
			let buffered = 0;
			const hold = (task: Task): Task =>
				task.verdict?.changed ? { ...task, skip: 'held', verdict: undefined, next: undefined } : task;
			const release = (origin: string, state: HostState, decision: 'pass' | 'blocked') => {
				state.decided = decision;
				hooks.onDecision(origin, { blocked: decision === 'blocked', changed: state.changed, probed: state.buffer.length });
				buffered -= state.buffer.length;
				for (const task of state.buffer) subscriber.next(decision === 'blocked' ? hold(task) : task);
				state.buffer = [];
			};

			const subscription = source.subscribe({
				next(task) {
					const counts = task.verdict && task.origin !== undefined && task.record && task.verdict.reason !== 'error';
					if (!counts) return subscriber.next(task);
					const origin = task.origin!;
					let state = hosts.get(origin);
					if (!state) {
						hosts.set(origin, (state = { buffer: [], changed: 0 }));
						if (accepted(origin)) release(origin, state, 'pass');
					}
					if (state.decided) return subscriber.next(state.decided === 'blocked' ? hold(task) : task);
					// A line parked by the probe gave its credit back already.
					if (!task.creditReturned && !task.parked) hooks.release?.();
					state.buffer.push({ ...task, creditReturned: true });
					buffered++;
					if (task.verdict!.changed) state.changed++;
					if (state.buffer.length >= churnMin) {
						release(origin, state, state.changed >= maxChurn * state.buffer.length ? 'blocked' : 'pass');
					} else if (buffered > maxBuffered) {
						const oldest = [...hosts.entries()].find(([, candidate]) => !candidate.decided && candidate.buffer.length > 0);
						if (oldest) release(oldest[0], oldest[1], 'pass');
					}
				},
				error: (error: unknown) => subscriber.error(error),
				complete() {
					// Too few known URLs to judge: let them through.
					for (const [origin, state] of hosts) if (!state.decided) release(origin, state, 'pass');
					subscriber.complete();
				},
			});
			return () => subscription.unsubscribe();
		});
}
