import type { DueQueue, QueueClock } from './due.js';
import type { Delivery } from './delivery-record.js';
import type { HostRecord } from './host-record.js';
import type { RunDetail, RunRecord } from './run-record.js';
import type { TextBlob, VersionLog } from './text-record.js';
import type { UrlRecord } from './url-record.js';

// The records, one file each; re-exported so that code may import any of them from here.
export type { DataRequest, LearnedNoise, StoredContent, UrlRecord } from './url-record.js';
export type { ConditionalForm, FormChecks, HostMode, HostNoise, HostRecord, RobotsCopy, SignalTrust } from './host-record.js';
export type { ChangeSide, RuleShown, RunChange, RunDetail, RunHostFigures, RunRecord, WordDiffHunks } from './run-record.js';
export type { KeptText, StoredVersion, TextBlob, VersionLog } from './text-record.js';
export type { Delivery } from './delivery-record.js';

/** Record format version; bumped when the shape of a stored record changes. */
export const RECORD_VERSION = 1;

/** A change to the store; `batch` applies a list of them at once. */

export type StoreOperation =
	| { type: 'put'; key: string; value: UrlRecord }
	| { type: 'del'; key: string }
	| { type: 'putHost'; key: string; value: HostRecord }
	| { type: 'delHost'; key: string }
	| { type: 'putRun'; key: string; value: RunRecord }
	| { type: 'putRunDetail'; key: string; value: RunDetail }
	| { type: 'delRunDetail'; key: string }
	| { type: 'putText'; key: string; value: TextBlob }
	| { type: 'delText'; key: string }
	| { type: 'putVersions'; key: string; value: VersionLog }
	| { type: 'delVersions'; key: string }
	| { type: 'putDelivery'; key: string; value: Delivery }
	| { type: 'delDelivery'; key: string };

/**
 * The validator store as the pipeline sees it. Small on purpose: LevelDB is the
 * embedded default, and a networked backend will implement the same contract
 * (test/store/contract.ts).
 */
export interface ValidatorStore {
	/** Records for `keys`, in order; `undefined` where nothing is stored. */
	getMany(keys: readonly string[]): Promise<Array<UrlRecord | undefined>>;
	/** Host records for `origins`, in order; `undefined` where nothing is stored. */
	getHosts(origins: readonly string[]): Promise<Array<HostRecord | undefined>>;
	/** Applies all operations atomically. */
	batch(operations: readonly StoreOperation[]): Promise<void>;
	/** Every URL record, in key order. */
	entries(): AsyncIterable<[string, UrlRecord]>;
	/**
	 * Every URL record, in key order, for a pass that only reads the store and does nothing
	 * else with it meanwhile but the reads it awaits between entries (`revisit due`): the
	 * store may let go of what it has read on the way (LevelDB unmaps the tables behind the
	 * pass, which stay resident otherwise). Where absent, `entries()` does.
	 */
	readPass?(): AsyncIterable<[string, UrlRecord]>;
	/** Every host record, in origin order. */
	hostEntries(): AsyncIterable<[string, HostRecord]>;
	/** Run history rows, oldest first (keys sort by start time). */
	runEntries(): AsyncIterable<[string, RunRecord]>;
	/** Run details (changed and failed URLs) for run keys, in order; `undefined` where none is kept. */
	getRunDetails(keys: readonly string[]): Promise<Array<RunDetail | undefined>>;
	/** Kept text blobs for their keys (text hashes), in order; `undefined` where none is kept. */
	getTexts(keys: readonly string[]): Promise<Array<TextBlob | undefined>>;
	/** Every kept text blob, in key order. */
	textEntries(): AsyncIterable<[string, TextBlob]>;
	/** The version logs of URLs (`--keep-versions`), in order; `undefined` where none is kept. */
	getVersions(keys: readonly string[]): Promise<Array<VersionLog | undefined>>;
	/** Every version log, in URL order. */
	versionEntries(): AsyncIterable<[string, VersionLog]>;
	/** Pending deliveries in key order (a target's in the order they were committed); with `target`, only that target's. */
	deliveryEntries(target?: string): AsyncIterable<[string, Delivery]>;
	/** The watch schedule kept in this store (`revisit watch`; see store/model/due.ts), on the schedule's clock. */
	dueQueue(clock: QueueClock): Promise<DueQueue>;
	close(): Promise<void>;
}
