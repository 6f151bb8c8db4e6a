import type { Product } from './product.js';
import type { KeptText } from './text-record.js';

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
 * One place on a page learned as noise (`--learn-noise`, see domain/content/noise.ts): `html:` and
 * an element path, `json:` and a JSON Pointer, or `re:` and a token pattern (plain text).
 */
export interface LearnedNoise {
	at: string;
	/** When it was learned (epoch ms). */
	since: number;
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
	 * Its latest checks, oldest first, at most 24 (domain/schedule/rate.ts): each the minutes since
	 * the check before, negative when that check found a change. What `rate` is estimated from.
	 */
	checks?: number[];
	/** Its estimated rate of change, in changes per day (domain/schedule/rate.ts). */
	rate?: number;
	/** Until when its last answer said it stays fresh (Cache-Control max-age or Expires; epoch ms). */
	freshUntil?: number;
	/** When the body was last confirmed by a full download (epoch ms): a 200 read whole, or an audit of a 304. */
	verifiedAt?: number;
	/** A new URL's first verification, spread over `--verify-every` by the URL's hash so that they don't all fall due at once. */
	verifyBy?: number;
	/** With content rules: the hash of what they counted, and which rule (see domain/content/rules.ts). */
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
	/**
	 * An HTML page's source at its last full download, as parts (domain/content/source-parts.ts):
	 * its size and a short hash of its visible text, scripts, styles, attributes, comments
	 * and tags. What tells the next change whose text is the same where its bytes moved.
	 */
	parts?: string;
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
	/** Hash of the decoded response body (domain/content/hash.ts's hashBody). */
	hash: string;
}
