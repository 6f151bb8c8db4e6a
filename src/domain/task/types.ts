import type { ConditionalForm, DataRequest, Delivery, StoredContent, UrlRecord, WordDiffHunks } from '../../store/model/types.js';
import type { Offer, Product } from '../../store/model/product.js';

/** What to send for one URL, given what its host has shown. */
export interface Plan {
	sendEtag: boolean;
	sendLastModified: boolean;
	/** Fetch unconditionally as well if the answer is a 304, and compare hashes. */
	audit: boolean;
	/**
	 * Re-test of a host caught lying: send an If-None-Match that can't match. An honest
	 * server answers in full; a liar still says 304. (Re-testing with the real validator
	 * proves nothing: a liar answers an unchanged page correctly too.)
	 */
	canary?: boolean;
	/** This probe re-tests something switched off for the host. */
	retest: boolean;
	/** Send the ETag without its content-coding suffix (the host's measured form). */
	stripEtag?: boolean;
	/** Due for verification (`--verify-every`): a 304 is audited whatever the audit rate. */
	verify?: boolean;
}

/**
 * Every reason a verdict can give (README's table; `robots` and `deferred` are robots.txt's,
 * docs/4-politeness.md): the one list. `Reason` is made from it and a verdict's `reason`
 * is a `Reason`, so a stage cannot give a reason that is not listed here.
 *
 * @example
 * REASONS.includes(verdict.reason) // true
 */
export const REASONS = [
	'new',
	'304',
	'same-hash',
	'new-body',
	'gone',
	'audit',
	'candidate',
	'error',
	'same-content',
	'rebaseline',
	'selector-gone',
	'price',
	'availability',
	'unmet',
	'robots',
	'deferred',
] as const;

export type Reason = (typeof REASONS)[number];

/**
 * The codes revisit itself gives a failed URL (docs/17-errors.md), besides `HTTP_<status>`.
 * The rest are the network's, passed on as Node and OpenSSL name them.
 */
export const URL_ERROR_CODES = [
	'BAD_INPUT',
	'UNEXPECTED_304',
	'BODY_TOO_LARGE',
	'EPRIVATE',
	'WORKER_DIED',
	'DELIVERY_LIMIT',
	'RENDER_TIMEOUT',
	'BROWSER_CRASHED',
	'RENDER_FAILED',
] as const;

/**
 * An error verdict's `error.code`: one of revisit's own (`URL_ERROR_CODES`), `HTTP_<status>`,
 * or a network code. Those come from Node and OpenSSL, an open set (`ECONNREFUSED`,
 * `DEPTH_ZERO_SELF_SIGNED_CERT`, …), so the type stays open to any string; the common ones
 * are listed for editors to offer.
 */
export type UrlErrorCode =
	| (typeof URL_ERROR_CODES)[number]
	| `HTTP_${number}`
	| 'ETIMEDOUT'
	| 'ECONNREFUSED'
	| 'ECONNRESET'
	| 'ENOTFOUND'
	| 'EAI_AGAIN'
	| 'ERR_TOO_MANY_REDIRECTS'
	| 'ERR_UNSUPPORTED_PROTOCOL'
	| (string & {});

/** Why a URL failed: its code, and a message for people. */
export interface UrlError {
	code: UrlErrorCode;
	message: string;
}

/** The answer for one URL; what `--ndjson` prints. Fields that don't apply are absent. */
export interface Verdict {
	url: string;
	changed: boolean;
	reason: Reason;
	status?: number;
	etag?: string;
	lastModified?: string;
	hash?: string;
	finalUrl?: string;
	/** Body bytes received on the wire (before decoding). */
	bytes?: number;
	ms?: number;
	error?: UrlError;
	/** The 304 matched a weak (W/) ETag: semantically, not byte-for-byte, unchanged. */
	weak?: boolean;
	/** When the body was last confirmed by a full download (ISO 8601): what bounds a change hidden behind 304s. */
	verifiedAt?: string;
	/** From a sitemap source: the entry's `<lastmod>`, as written there. */
	lastmod?: string;
	/** With `--diff`: lines added and removed (`+3 -1`) in the counted content. */
	summary?: string;
	/** The URL's estimated rate of change, in changes per day, after this check (see docs/12-scheduling.md). */
	rate?: number;
	/**
	 * With `--product`: the offer read from the page; `prices` counts the different prices
	 * when there were several (`price` is the URL's variant's, else the lowest that can be
	 * had), `listPrice` is the price struck through beside it, `source` says where it was
	 * read from. `null` when the page gives none (with `problem: 'no-offer'`).
	 */
	product?: (Product & { prices?: number }) | null;
	/** With `--product`: the offer as it was counted at the check before (absent at first sight). */
	previous?: Product;
	/** With `--product`, `no-offer`: no offer was found on the page (see docs/7-products.md); `revisit rules test URL --product` shows why. */
	problem?: 'no-offer';
	/** A browser rendered the page for this verdict (`--render`). */
	rendered?: boolean;
	/** A change whose visible text is the same as before, in words: `the text is the same; the bytes changed: 1,204 → 1,231 bytes, in the scripts`. */
	note?: string;
}

/** What the probe stage learnt from the network for one URL. */
export interface ProbeResult {
	status: number;
	etag?: string;
	lastModified?: string;
	hash?: string;
	finalUrl: string;
	permanent: boolean;
	bytes: number;
	ms: number;
	error?: UrlError;
	/** The server sent a validator that can't be echoed safely; it was not kept. */
	unsafeValidator?: boolean;
	/** A 2xx whose body was not read (HEAD, or a candidates sweep): it may have changed. */
	headersOnly?: boolean;
	/** How long the answer says it stays fresh (Cache-Control max-age, Expires), in ms; absent when it says nothing. */
	freshMs?: number;
	/** Chromium rendered the page (`--render`): its counted content is the rendered DOM's. */
	rendered?: boolean;
	/** What the render loaded, the document first: kept with the record, revalidated next time. */
	renderData?: DataRequest[] | undefined;
	/** The decoded body, kept only by a fetch until it is written out. */
	body?: Buffer | undefined;
	contentType?: string | undefined;
	/**
	 * The answer's header fields, kept with `body` by a request that asked for them (body
	 * mode `hand`; names lower-case, repeated fields joined with ", ", Set-Cookie left out):
	 * what a browser needs to be handed the body (`--render`'s data requests).
	 */
	responseHeaders?: Record<string, string> | undefined;
	/** The unconditional re-fetch that audited a 304. */
	audit?: ProbeResult;
	/** A HEAD-versus-GET sample: did HEAD tell the same story as GET? */
	headCheck?: { agree: boolean; reason: string };
	/** What the run's content rules counted of a 2xx body (absent without rules). */
	content?: ContentHash | undefined;
	/** The exchange as it crossed the wire (only when capturing, for WARC output). */
	wire?: WireCapture | undefined;
	/** Which conditional forms were put to the server right after this answer, and what each got. */
	formCheck?: FormCheck[];
	/**
	 * The counted text of a 2xx body read whole, cut at `--keep-text` (for the word diff of
	 * `revisit report`); `visible` when it is the visible text of the counted markup (an
	 * HTML page without a rule), `json` when it is counted JSON pretty-printed, so that
	 * compare can make it again with learned noise out.
	 */
	counted?: { text: string; cut: boolean; visible?: boolean; json?: boolean } | undefined;
	/** A PDF whose text could not be read, and so judged by its bytes: why (encrypted, broken, pdftotext missing…). */
	unread?: string | undefined;
	/** An HTML page read for its visible text: the fingerprint of its source's parts (domain/content/source-parts.ts), kept with its record. */
	parts?: string | undefined;
}

/**
 * The hash of what a content rule counted and which rule (by id) produced it, as a
 * record stores it, with the counted text itself while noise is being learnt.
 */
export interface ContentHash extends StoredContent {
	/** The counted text itself, kept only while learning noise; never stored. */
	text?: string | undefined;
	/** A product rule: the offer read, with where from and how many prices (`product` is what is stored of it); never stored. */
	offer?: Offer | undefined;
}

/**
 * One HTTP exchange as it crossed the wire: the request as sent, the response's status
 * line and header fields as received, and its body with its content codings still on
 * (transfer codings are undone by Node's parser). Plain data, so it survives a worker hop.
 */
export interface WireCapture {
	/** The request line and header block, as sent (CRLF line ends, no final blank line). */
	request: string;
	/** The response's status line and header fields, transfer-coding headers dropped. */
	response: string;
	body: Buffer;
	/** The server's address, when known. */
	ip?: string | undefined;
	/** When the answer was in (epoch ms). */
	at: number;
	/** The URL the exchange was for (the last hop of a redirect chain). */
	url: string;
}

/** One conditional form put to a server, and the status it got (304: honoured; 2xx: ignored). */
export interface FormCheck {
	form: ConditionalForm;
	status: number;
}

/** One line of input as a source reads it (`readLines`, io/sources), before `normalise` makes it a task. */
export interface InputLine {
	/** 1-based line number in the input. */
	line: number;
	text: string;
	/** Set when the line can't be a URL whatever it says (too long, NUL, invalid UTF-8). */
	problem?: string;
	/** Which input it came from (a pipeline's source), for diagnostics. */
	source?: string;
	/** A sitemap entry's `<lastmod>`. */
	lastmod?: string;
	/** The document that listed the URL (a sitemap's URL). */
	from?: string;
}

/**
 * How a task moves through the run, apart from what it says of its page: where its line
 * came from, whether it was skipped and why, and the valve's bookkeeping. A stage that
 * only routes tasks reads these; none of them is stored or printed as the page's data.
 */
export interface TaskFlow {
	line: number;
	input: string;
	skip?: 'rejected' | 'duplicate' | 'not-due' | 'held' | 'filtered' | 'later' | 'signal';
	/** Why the line was rejected. */
	problem?: string;
	/** Which input the line came from (a pipeline's source), for diagnostics. */
	source?: string;
	/** The task gave its backpressure credit back early (held in a buffer); don't release it again. */
	creditReturned?: boolean;
	/** The task was parked while its host held it up (see `Valve.park`): it leaves through `unpark()`. */
	parked?: boolean;
	/** A line for diagnostics about this task's origin, said once (robots.txt unreachable, Crawl-delay over the cap). */
	notice?: string;
	/** The fetch phase downloaded the body and judged it (for the churn guard, a sample of the host's candidates). */
	fetched?: boolean;
	/** A second fetch looked for noise on this page (`--learn-noise`). */
	noiseFetched?: boolean;
}

/**
 * What a task knows of its page: the URL and what listed it, the stored record, the
 * request planned and its answer, the verdict, and what is to be stored and delivered.
 * Stages fill these in, in the order docs/internals/1-architecture.md tabulates.
 */
export interface PageData {
	url?: string;
	/** A sitemap entry's `<lastmod>`, passed on to the verdict. */
	lastmod?: string;
	/** The document that listed the URL (a sitemap's URL), for the filter's `sameHost`. */
	from?: string;
	/** Its host's trusted lastmod says it changed since its last check (domain/schedule/signals.ts): ranked before others by the budget. */
	announced?: boolean;
	/**
	 * A trusted signal would have skipped it, but `--verify-every` has made it due: under a budget it
	 * gets a check of its own (the `verify` tier), since nothing else would check it before its bound.
	 */
	mustVerify?: boolean;
	/** Stored state; `null` when the URL has never been seen. */
	record?: UrlRecord | null;
	/** Origin the probe went to, and what the host's trust allowed it to send. */
	origin?: string;
	plan?: Plan;
	probe?: ProbeResult;
	verdict?: Verdict;
	/** State to commit once the verdict is out; `undefined` leaves the store as it is. */
	next?: UrlRecord;
	/** The change's pending deliveries (src/io/outbox), committed in the same batch as `next`. */
	deliveries?: Array<{ key: string; value: Delivery }>;
	/** With `--diff`: the unified diff of the counted content against the previous version. */
	diff?: string;
	/** A change's word diff against the text kept at its last change, or why there is none (see stages/keep-text.ts). */
	wordDiff?: { hunks?: WordDiffHunks; why: string; cut?: boolean; kept?: number };
	/** Learned noise: how many places (and legacy patterns) were masked in the counted text before it was judged and kept. */
	noise?: number;
}

/**
 * One input line on its way through the sweep: its flow (`TaskFlow`) and its page's data
 * (`PageData`), in one object that stages fill in, so that a task costs one allocation.
 * A task that is `skip`ped (bad input, duplicate) passes the remaining stages untouched,
 * so every line reaches the end of the pipeline exactly once (that is what releases
 * backpressure).
 */
export interface Task extends TaskFlow, PageData {}
