import type { DueQueue, QueueClock } from './due/types.js';
import type { Product } from '../product/types.js';

/** Record format version; bumped when the shape of a stored record changes. */
export const RECORD_VERSION = 1;

/** What content rules counted of a 2xx body, as a record keeps it. */
export interface StoredContent {
	hash: string;
	/** The rule's id; `-` when no rule matched the URL (the whole body counted). */
	rules: string;
	/** A select rule matched something. */
	matched?: boolean | undefined;
	/** The rule needed HTML or JSON and the body was neither: hashed as bytes. */
	unreadable?: boolean | undefined;
	/** With learned noise: when the noise it was hashed under was taken (epoch ms); the entries learned by then are that set. */
	noiseAt?: number | undefined;
	/** With `--product`: the offer counted (what the next check's `previous` is). */
	product?: Product | undefined;
	/** With `--product`: the page gave no offer (no price and no availability), so that the next check knows it never had one. */
	noOffer?: boolean | undefined;
}

/**
 * One place on a page learned as noise (`--learn-noise`, see content/noise.ts): `html:` and
 * an element path, `json:` and a JSON Pointer, or `re:` and a token pattern (plain text).
 */
export interface LearnedNoise {
	at: string;
	/** When it was learned (epoch ms). */
	since: number;
}

/** A place learned as noise on pages of a host, with the URL template they share (see hosts/noise.ts). */
export interface HostNoise {
	/** The URL path with ids and its last segment generalised: `/product/*`. */
	template: string;
	at: string;
	/** Short hashes of the pages that learned it, up to the number that makes it the host's. */
	pages: string[];
	/** First learned (epoch ms). */
	since: number;
	/** When enough pages had learned it for it to apply to every page of the template (epoch ms). */
	applies?: number;
}

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
	/** When the URL is next due (epoch ms), with `--ttl` or `--adaptive`. */
	nextDue?: number;
	/** The URL's current revisit interval in ms (adaptive schedule). */
	interval?: number;
	/**
	 * Its latest checks, oldest first, at most 24 (schedule/rate.ts): each the minutes since
	 * the check before, negative when that check found a change. What `rate` is estimated from.
	 */
	checks?: number[];
	/** Its estimated rate of change, in changes per day (schedule/rate.ts). */
	rate?: number;
	/** Until when its last answer said it stays fresh (Cache-Control max-age or Expires; epoch ms). */
	freshUntil?: number;
	/** When the body was last confirmed by a full download (epoch ms): a 200 read whole, or an audit of a 304. */
	verifiedAt?: number;
	/** A new URL's first verification, spread over `--verify-every` by the URL's hash so that they don't all fall due at once. */
	verifyBy?: number;
	/** With content rules: the hash of what they counted, and which rule (see content/rules.ts). */
	content?: StoredContent;
	/** Learned noise of an earlier revisit: token patterns removed from the counted text before its content hash is taken. */
	noise?: string[];
	/** Learned noise (`--learn-noise`): the places on this page left out of its content hash, and when each was learned. */
	learned?: LearnedNoise[];
	/**
	 * The page needs rendering (`--render`): what its last render loaded, the document first,
	 * each with its validators and body hash, revalidated with got at the next check.
	 */
	render?: { data: DataRequest[] };
	/** Its last capture in a WARC (`--warc`): payload digest (sha1:BASE32), WARC-Date, target URI; what a revisit record refers to. */
	warc?: { digest: string; date: string; uri: string };
	/**
	 * The counted text at the page's first sight or last change (`--keep-text`, default
	 * on), cut at the per-page cap: what `revisit report` diffs the next change against.
	 * The text itself is a TextBlob, shared by the pages with the same text (see stages/keep-text.ts).
	 */
	text?: KeptText;
}

/**
 * A request a rendered page made for its data (an XHR or fetch answered with JSON or HTML,
 * or the document itself), as the page's record keeps it: the next check revalidates it with
 * got, without a browser.
 */
export interface DataRequest {
	url: string;
	etag?: string;
	lastModified?: string;
	/** Hash of the decoded response body (content/hash.ts's hashBody). */
	hash: string;
}

/**
 * Counted text kept for the next diff: the key of its blob (the text's hash), and whether
 * it was cut at the per-page cap. A record written before blobs holds the text inline
 * (`text`); it is read, and replaced by a blob at the page's next change.
 */
export interface KeptText {
	hash?: string;
	text?: string;
	cut?: boolean;
}

/**
 * One kept text, stored once under its hash however many pages have it (`revisit report`
 * diffs against it): compressed, with when a page last took it. Blobs no record points to
 * any more are collected when the total passes its bound, and by `revisit prune` (store/text-gc.ts).
 */
export interface TextBlob {
	v: number;
	/** The text, brotli-compressed (store/text-blob.ts). */
	z: Buffer;
	/** Its UTF-8 size before compression. */
	bytes: number;
	/** When a page last changed to (or was first seen with) this text, epoch ms: past the total, the least recent go first. */
	at: number;
}

export type HostMode = 'conditional' | 'hash-only' | 'unconditional';

/** A way of asking conditionally: see hosts/forms.ts. */
export type ConditionalForm = 'both' | 'etag' | 'last-modified' | 'etag-stripped' | 'etag-stripped-both';

/** Per form: unchanged answers seen (tried), and how many of them were 304 (hits). */
export type FormChecks = Partial<Record<ConditionalForm, { tried: number; hits: number }>>;

/**
 * What revisit has measured about one origin (scheme, host, port), and the mode it
 * derived from that: how far the host's validators can be trusted.
 */
/**
 * The origin's robots.txt as last fetched: what it answered and when, with the validators
 * to revalidate it. A 4xx is kept too (everything allowed, no text).
 */
export interface RobotsCopy {
	status: number;
	/** The body, cut at the parse limit (500 KiB); empty for a 4xx. */
	text: string;
	etag?: string;
	lastModified?: string;
	/** When the origin last confirmed this copy (a 2xx, 304 or 4xx), epoch ms. */
	fetchedAt: number;
	/** How long the copy may be used without asking again (24 h, or less by Cache-Control). */
	freshMs: number;
}

/**
 * How far a free signal of a host (its sitemap `<lastmod>`, its `max-age` / `Expires`) can
 * be trusted to skip checks, measured as the validators are (see schedule/signals.ts):
 * how often checks bore out what it said (`right`: a change lastmod announced, an answer
 * still fresh found unchanged) and how often they proved it wrong.
 */
export interface SignalTrust {
	right: number;
	wrong: number;
	/** Right in a row since it was last wrong: trust comes at TRUST_AFTER. */
	streak: number;
	trusted: boolean;
	reason: string;
	/** Skipped URLs on its trust, and those checked anyway as a sample (totals). */
	skipped: number;
	sampled: number;
	/** When a check last scored it (epoch ms): a trusted signal not tested for half of `--verify-every` skips nothing until it is. */
	testedAt?: number;
}

export interface HostRecord {
	v: number;
	/** Its sitemap lastmod, measured against checks (schedule/signals.ts); absent until a sitemap URL of it is checked. */
	lastmod?: SignalTrust;
	/** Its Cache-Control max-age / Expires, measured the same way; absent until an answer of it said one and was checked again. */
	maxAge?: SignalTrust;
	/** The origin's robots.txt, with its validators (see robots/gate.ts). */
	robots?: RobotsCopy;
	/** Runs in which the host was probed. */
	runs: number;
	/** Start time of the last run that probed it (epoch ms). */
	lastRunAt: number;
	/** URLs of this host that have learned noise (`--learn-noise`). */
	noisy?: number;
	/** Its product pages (`--product`) that gave no offer at their last check, up to 100 (hosts/no-offer.ts). */
	noOffer?: string[];
	/** Its pages that need rendering (`--render`), per URL template, and the data requests they load in all: a new page of such a template skips the static try. */
	render?: Record<string, { pages: number; data: number }>;
	/** URLs its last budgeted run left for later although past their `--verify-every` bound: the budget cannot keep the bound. */
	pastBound?: number;
	/** Places learned as noise on several of its pages: they apply to the host's other pages of that template too. */
	noise?: HostNoise[];
	/** URLs of this host first stored. */
	urls: number;
	/** Requests that carried If-None-Match or If-Modified-Since. */
	conditional: number;
	/** 304s received. */
	notModified: number;
	/** Full 200s to a conditional request whose body had not changed: a 304 was due. */
	missed304: number;
	/** 200s with an unchanged body where an ETag was stored and sent back, and how many had a new ETag. */
	etagCompared: number;
	etagChurn: number;
	/** The same for Last-Modified. */
	lastModifiedCompared: number;
	lastModifiedChurn: number;
	/** Unconditional re-fetches that audited a 304, and those that found a change it hid. */
	audits: number;
	lies: number;
	/**
	 * The host's own audit rate (see hosts/audit-rate.ts): absent, the run's `--audit`. Halved
	 * when a run starts after CLEAN_AUDITS_TO_HALVE clean audits in a row, down to a tenth of
	 * `--audit`; removed (back to `--audit`) when an audit catches a lie.
	 */
	auditRate?: number;
	/** Clean audits in a row since the rate was last halved or the host last lied. */
	cleanAudits?: number;
	/** HEAD-versus-GET sample probes, and how many disagreed. */
	headChecks: number;
	headDisagreements: number;
	errors: number;
	/** Validators refused because they could not be echoed safely (CR/LF, controls, over 1 KiB). */
	badValidators?: number;
	/** Derived mode, and why it was last changed. */
	mode: HostMode;
	modeReason: string;
	modeChangedAt?: number;
	/** ETag / Last-Modified not sent: they change while the body does not. */
	etagOff?: boolean;
	lastModifiedOff?: boolean;
	/** Set by `revisit hosts set`; wins over the derived mode. */
	override?: HostMode;
	/** Request method chosen for the sweep, and why. */
	method?: 'get' | 'head';
	methodReason?: string;
	/** Probes since the last re-test of a switched-off host. */
	sinceRetest: number;
	/** Honest 304s seen when re-testing a host marked as lying. */
	honestRetests: number;
	/** The conditional form the host honours, measured by form checks (`none`: no form works); unset until measured. */
	form?: ConditionalForm | 'none';
	formReason?: string;
	formChecks?: FormChecks;
	/** URLs whose form check is complete. */
	formSamples?: number;
	/** Milliseconds between the host's two latest runs: how far ahead verification looks. */
	runInterval?: number;
	/** Set while the churn guard holds this host's changes back. */
	blocked?: { at: number; changed: number; probed: number };
	/**
	 * Left by the host's latest `sweep --candidates`: of the known URLs it judged
	 * (`probed`), how many it passed on as candidates (`passedOn`). `at` is that run's
	 * start, `run` its number (`runs`). A `revisit fetch` that is the host's next run
	 * judges churn over `probed` with these, not over the candidates alone.
	 */
	candidateSweep?: { at: number; run: number; probed: number; passedOn: number };
}

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
	/** The text of one side or both was cut at the per-page cap (`--keep-text`): the bytes compared. A change past them does not show. */
	kept?: number;
	/** A product rule's offer before and after (`--product`); `before` is absent at first sight; `said`, its move in words (product/fields.ts `offerChange`). */
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
 * changes name and a report can show them; content/rules.ts calls it `RuleSpec`.
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

/**
 * A change waiting for one target (`--atom`, `--webhook`, one `--notify` URL): written in
 * the batch that commits the change, deleted once the target took it (src/outbox). Its key
 * is `TARGET/WHEN-SEQ`, so that a target's deliveries list in the order they were committed.
 */
export interface Delivery {
	v: number;
	/** The target's id (a hash of its URL or path, no secret in it): the key's first part. */
	target: string;
	/** The target as it may be shown: its kind and its URL with the secrets hidden. */
	shown: string;
	/** When the change was committed (epoch ms, wall clock): what `--delivery-max-age` counts from. */
	at: number;
	/** What the target is sent: the notification, the webhook's entry, the Atom entry. */
	payload: unknown;
}

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
	/** Pending deliveries in key order (a target's in the order they were committed); with `target`, only that target's. */
	deliveryEntries(target?: string): AsyncIterable<[string, Delivery]>;
	/** The watch schedule kept in this store (`revisit watch`; see store/due/types.ts), on the schedule's clock. */
	dueQueue(clock: QueueClock): Promise<DueQueue>;
	close(): Promise<void>;
}
