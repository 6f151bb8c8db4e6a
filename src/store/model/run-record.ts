import type { Product } from './product.js';

/** Per-host figures of one run. */
export interface RunHostFigures {
	urls: number;
	changed: number;
	conditional: number;
	notModified: number;
}

/** One row of run history: what a sweep did, for dashboards and `revisit history`. */
export interface RunRecord {
	v: number;
	startedAt: number;
	endedAt: number;
	urls: number;
	changed: number;
	notModified: number;
	/**
	 * 200s whose body hash was unchanged. Runs recorded before `sameContent` was kept also
	 * count their `same-content` and `rebaseline` verdicts here.
	 */
	sameHash: number;
	/** (content rules) `same-content` verdicts; absent in runs recorded before it was kept. */
	sameContent?: number;
	/** (content rules) `rebaseline` verdicts; absent in runs recorded before it was kept. */
	rebaseline?: number;
	/** Changes that did not meet the run's `--when` condition (`unmet` verdicts); absent when none. */
	unmet?: number;
	/** Pages rendered in Chromium (`--render`). */
	rendered?: number;
	/** The run's `--when` condition, as written; absent when it had none. */
	when?: string;
	errors: number;
	/** URLs deferred by robots.txt (unreachable, or a Crawl-delay over the cap); absent in older runs. */
	deferred?: number;
	/** Of `deferred`, those whose robots.txt could not be had; absent in older runs. */
	unreachable?: number;
	/** Body bytes received. */
	bytes: number;
	/** Body bytes a full download of every URL would have cost, estimated from stored sizes. */
	fullBytes: number;
	notDue: number;
	blockedHosts: string[];
	hosts: Record<string, RunHostFigures>;
	/** Bytes of counted text the store keeps for diffs after this run (`--keep-text`), as the runs counted them. */
	textBytes?: number;
	/**
	 * Written before the run ended: a watch writes its hour's row with its commits as it
	 * goes, so that this is what a watch still running elsewhere, or one that was killed,
	 * had committed. Absent once the run's own end wrote it.
	 */
	unfinished?: boolean;
	/** Set (never stored) on the row of the hour a running watch is in, as the watch answers a read: its figures so far. */
	live?: boolean;
}

/**
 * A word diff, as hunks of parts: `[0, text]` the same, `[1, text]` added, `[-1, text]`
 * removed (whitespace is a part of its own). Context around the changes is cut short.
 */
export type WordDiffHunks = Array<Array<[0 | 1 | -1, string]>>;

/** Validators and hashes of one side of a change. */
export interface ChangeSide {
	status?: number;
	etag?: string;
	lastModified?: string;
	/** Hash of the body bytes, and of the counted content when rules or noise apply. */
	hash?: string;
	content?: string;
}

/** One changed or failed URL of a run, as its detail keeps it for `revisit report`. */
export interface RunChange {
	url: string;
	origin?: string;
	reason: string;
	changed: boolean;
	before?: ChangeSide;
	after?: ChangeSide;
	/** The 304 was audited (an unconditional re-fetch compared the hashes). */
	audit?: boolean;
	/** The content rule that counted (its id), and the learned noise patterns removed. */
	rule?: string;
	noise?: number;
	bytes?: number;
	error?: { code: string; message: string };
	/** The word diff of the counted content; absent when there was nothing to diff against (see `text`). */
	diff?: WordDiffHunks;
	/** Why there is or is not a diff: `diff`, `no-earlier-text`, `not-read`, `off`, `total-cap`, `too-different`. */
	text?: string;
	/** The diff was cut at its size cap. */
	cut?: boolean;
	/** The verdict's note: the text is the same, and where the bytes moved. */
	note?: string;
	/** The text of one side or both was cut at the per-page cap (`--keep-text`): the bytes compared. A change past them does not show. */
	kept?: number;
	/**
	 * A product rule's offer before and after (`--product`); `before` is absent at
	 * first sight; `said`, its move in words (domain/product/fields.ts `offerChange`).
	 */
	product?: { before?: Product; after: Product; said?: string };
}

/**
 * What `revisit report` needs of a run beyond its row: its changed and failed URLs, each
 * list cut at a cap (`dropped` counts what was left out), and every error counted by code.
 * Kept under the run's key; only the latest runs' details are kept.
 */
export interface RunDetail {
	v: number;
	startedAt: number;
	changes: RunChange[];
	errors: RunChange[];
	errorCounts: Record<string, number>;
	dropped: { changes: number; errors: number };
	/** The content rules its changes name (`RunChange.rule`), by id, as they were written. */
	rules?: Record<string, RuleShown>;
}

/**
 * A content rule as written (CLI flags, a rules file, a pipeline's compare stage): plain
 * data. Defined here, below content/, so that a run's detail can keep the rules its
 * changes name and a report can show them; domain/content/rules.ts calls it `RuleSpec`.
 */
export interface RuleShown {
	/** Which URLs it applies to: a hostname (`example.org`), or a regular expression over the URL. Absent: every URL. */
	match?: string | undefined;
	/** CSS selectors: only the matching elements count (HTML). */
	select?: readonly string[] | undefined;
	/** CSS selectors: the matching elements are removed before counting, with or without `select` (HTML). */
	exclude?: readonly string[] | undefined;
	/** Count the visible text only: scripts, styles and tags dropped, whitespace collapsed. */
	text?: boolean | undefined;
	/** Regular expressions whose matches are removed before hashing; for JSON, keys matching one are dropped. */
	ignore?: readonly string[] | undefined;
	/** JSON Pointers (RFC 6901): only these parts of a JSON document count. */
	pointer?: readonly string[] | undefined;
	/** Learn noise on the URLs this rule applies to, as `--learn-noise` does for all. */
	learn?: boolean | undefined;
	/** Render these pages in Chromium: never, when the static page cannot answer (auto), or always (`--render`). */
	render?: 'never' | 'auto' | 'always' | undefined;
	/** Only the page's offer counts: price, currency and availability, from structured data (or `price`/`availability`). */
	product?: boolean | undefined;
	/** CSS selectors whose text gives the price where the page has no structured data; implies `product`. */
	price?: readonly string[] | undefined;
	/** CSS selectors whose text gives the availability where the page has no structured data; implies `product`. */
	availability?: readonly string[] | undefined;
}
