/** Record format version; bumped when the shape of a stored record changes. */
export const RECORD_VERSION = 1;

/**
 * What revisit remembers about one normalised URL. Validators are kept exactly as the
 * server sent them (quotes, `W/`, the Last-Modified string byte for byte).
 */
export interface UrlRecord {
	v: number;
	/** HTTP status of the last final answer (200, 404, 410). */
	status: number;
	etag?: string;
	lastModified?: string;
	/** Hash of the decoded body bytes (hex, 128 bits). */
	hash?: string;
	/** Where the last request ended after redirects, when it differs from the key. */
	finalUrl?: string;
	/** Every redirect hop was permanent (301/308): the next probe may go to finalUrl directly. */
	permanent?: boolean;
	/** Body bytes on the wire at the last full download; what a 304 saves. */
	size?: number;
	/** Accept-Encoding under which the validators were obtained. */
	encoding?: string;
	/** Epoch milliseconds of the last check that produced a verdict other than error. */
	lastChecked: number;
}

export type StoreOperation =
	| { type: 'put'; key: string; value: UrlRecord }
	| { type: 'del'; key: string };

/**
 * The validator store as the pipeline sees it. Small on purpose: LevelDB is the
 * embedded default, and a networked backend will implement the same contract
 * (test/store/contract.ts).
 */
export interface ValidatorStore {
	/** Records for `keys`, in order; `undefined` where nothing is stored. */
	getMany(keys: readonly string[]): Promise<Array<UrlRecord | undefined>>;
	/** Applies all operations atomically. */
	batch(operations: readonly StoreOperation[]): Promise<void>;
	/** Every record, in key order. */
	entries(): AsyncIterable<[string, UrlRecord]>;
	close(): Promise<void>;
}
