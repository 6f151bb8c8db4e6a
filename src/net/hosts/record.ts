import { RECORD_VERSION, type HostRecord } from '../../store/model/types.js';

/**
 * A host never seen before: trusted until measured otherwise.
 *
 * @example
 * newHostRecord(Date.now()).mode // 'conditional'
 */
export function newHostRecord(now: number): HostRecord {
	return {
		v: RECORD_VERSION,
		runs: 0,
		lastRunAt: 0,
		urls: 0,
		conditional: 0,
		notModified: 0,
		missed304: 0,
		etagCompared: 0,
		etagChurn: 0,
		lastModifiedCompared: 0,
		lastModifiedChurn: 0,
		audits: 0,
		lies: 0,
		headChecks: 0,
		headDisagreements: 0,
		errors: 0,
		mode: 'conditional',
		modeReason: 'new host: validators trusted until measured',
		modeChangedAt: now,
		sinceRetest: 0,
		honestRetests: 0,
	};
}
