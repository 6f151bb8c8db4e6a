import { defer, finalize, ignoreElements, lastValueFrom, NEVER, of, Subject, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/domain/task/types.js';
import type { Summary } from '../../src/pipelines/summary.js';
import { clockOf } from '../../src/watch/clock.js';
import { type Epoch, watchEpochs } from '../../src/watch/epochs.js';

const T = Date.parse('2030-01-01T00:00:00Z');

/** A schedule clock the test moves by hand: `scale` schedule ms per wall ms. */
function handClock(scale = 1) {
	let wall = 0;
	return { clock: clockOf({ at0: T, wall0: 0, scale }, () => wall), pass: (wallMs: number) => void (wall += wallMs) };
}

describe('watchEpochs', () => {
	it('runs epochs one after another until the clock reaches --until, each told its end, each settled before its row is told', async () => {
		const { clock, pass } = handClock();
		const log: string[] = [];
		const epochs: Epoch[] = [];
		const rows: Summary[] = [];
		const run = (epoch: Epoch) =>
			defer(() => {
				epochs.push(epoch);
				log.push('run');
				pass(1000);
				return of({ url: `https://a.test/${epochs.length}` } as Task);
			});
		const tasks = await lastValueFrom(
			watchEpochs(run, {
				clock,
				epochMs: 1000,
				minEpochWallMs: 0,
				until: T + 2500,
				stop: NEVER,
				observer: {
					epoch: (summary) => {
						rows.push(summary);
						log.push('row');
					},
				},
				settle: async () => {
					await Promise.resolve();
					log.push('settled');
				},
			}).pipe(take(10), toArray()),
		);
		expect(tasks.map((task) => task.url)).toEqual(['https://a.test/1', 'https://a.test/2', 'https://a.test/3']);
		expect(epochs.map((epoch) => epoch.until - T)).toEqual([1000, 2000, 2500]);
		expect(log).toEqual(['run', 'settled', 'row', 'run', 'settled', 'row', 'run', 'settled', 'row']);
		expect(rows).toEqual(epochs.map((epoch) => epoch.summary));
		expect(new Set(rows).size).toBe(3);
		expect(epochs[0]!.live).toMatchObject({ rowEveryMs: 1000 });
	});

	it('lasts at least minEpochWallMs of wall time under --time-scale', async () => {
		const { clock } = handClock(3600);
		const epochs: Epoch[] = [];
		const stop = new Subject<void>();
		// The stop fires once the epoch is under way, as a signal does.
		const run = (epoch: Epoch) =>
			defer(async () => {
				epochs.push(epoch);
				await Promise.resolve();
				stop.next();
			}).pipe(ignoreElements());
		await lastValueFrom(watchEpochs(run, { clock, epochMs: 1000, minEpochWallMs: 1000, stop, settle: async () => {} }).pipe(take(10), toArray()));
		expect(epochs.map((epoch) => epoch.until - T)).toEqual([3_600_000]);
	});

	it('begins no epoch after a stop that fired during one, and ends the stop it listened to', async () => {
		const { clock, pass } = handClock();
		const stop = new Subject<void>();
		let runs = 0;
		const run = () =>
			defer(() => {
				runs++;
				pass(10);
				if (runs === 2) stop.next();
				return of({ url: `https://a.test/${runs}` } as Task);
			});
		const tasks = await lastValueFrom(watchEpochs(run, { clock, epochMs: 1000, minEpochWallMs: 0, stop, settle: async () => {} }).pipe(take(10), toArray()));
		expect(tasks).toHaveLength(2);
		expect(runs).toBe(2);
		expect(stop.observed).toBe(false);
	});

	it('unsubscribing ends the epoch under way and lets go of the stop', () => {
		const { clock } = handClock();
		const stop = new Subject<void>();
		let ended = false;
		const run = () =>
			NEVER.pipe(
				finalize(() => {
					ended = true;
				}),
			);
		const subscription = watchEpochs(run, { clock, epochMs: 1000, minEpochWallMs: 0, stop, settle: async () => {} }).subscribe();
		expect(stop.observed).toBe(true);
		subscription.unsubscribe();
		expect(ended).toBe(true);
		expect(stop.observed).toBe(false);
	});
});
