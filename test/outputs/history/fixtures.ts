import { RECORD_VERSION, type RunRecord } from '../../../src/store/model/types.js';

/** A run row as a sweep stores it; `hosts` figures and times as given. */
export function run(startedAt: number, fields: Partial<RunRecord> = {}): RunRecord {
	return {
		v: RECORD_VERSION,
		startedAt,
		endedAt: startedAt + 1500,
		urls: 0,
		changed: 0,
		notModified: 0,
		sameHash: 0,
		errors: 0,
		bytes: 0,
		fullBytes: 0,
		notDue: 0,
		blockedHosts: [],
		hosts: {},
		...fields,
	};
}

export const T0 = Date.UTC(2024, 11, 2, 14, 0, 0);
