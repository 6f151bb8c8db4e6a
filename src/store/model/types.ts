import type { DueQueue, QueueClock } from './due.js';
import type { Delivery } from './delivery-record.js';
import type { HostMode, HostRecord } from './host-record.js';
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
 * What every backend can do: read. The reads of a store a running watch holds go
 * through the watch (store/socket), so a caller that only reads takes this, and works on
 * any store (test/store/reader-contract.ts). Every backend reads, so `close` is here.
 */
export interface StoreReader {
	/** Records for `keys`, in order; `undefined` where nothing is stored. */
	getMany(keys: readonly string[]): Promise<Array<UrlRecord | undefined>>;
	/** Host records for `origins`, in order; `undefined` where nothing is stored. */
	getHosts(origins: readonly string[]): Promise<Array<HostRecord | undefined>>;
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
	close(): Promise<void>;
}

/** What a backend that holds its data can do: change it (test/store/writer-contract.ts). */
export interface StoreWriter {
	/** Applies all operations atomically. */
	batch(operations: readonly StoreOperation[]): Promise<void>;
}

/** What a backend that keeps the watch schedule beside its records can do (test/store/due-contract.ts). */
export interface StoreScheduler {
	/** The watch schedule kept in this store (`revisit watch`; see store/model/due.ts), on the schedule's clock. */
	dueQueue(clock: QueueClock): Promise<DueQueue>;
}

/**
 * Hosts' hand overrides (`revisit hosts set`), set by origin (a mode) or dropped
 * (undefined), the rest of each host's record left as measured: the one write a running
 * watch takes through its socket (store/socket), into its own view of the host.
 */
export interface HostOverrides {
	overrideHosts(overrides: ReadonlyArray<readonly [origin: string, mode: HostMode | undefined]>): Promise<void>;
}

/**
 * The whole validator store: what LevelDB, memory-level and Redis each implement, and
 * every one of them runs the reader, writer and schedule contracts (test/store/). A caller
 * asks for the narrowest part it uses.
 */
export interface ValidatorStore extends StoreReader, StoreWriter, StoreScheduler {}

/** A LevelDB store a running watch holds, as another process has it through the watch's socket (store/socket/store.ts). */
export interface WatchedStore extends StoreReader, HostOverrides {}
