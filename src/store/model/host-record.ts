/** A place learned as noise on pages of a host, with the URL template they share (see net/hosts/noise.ts). */
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

export type HostMode = 'conditional' | 'hash-only' | 'unconditional';

/** A way of asking conditionally: see net/hosts/forms.ts. */
export type ConditionalForm = 'both' | 'etag' | 'last-modified' | 'etag-stripped' | 'etag-stripped-both';

/** Per form: unchanged answers seen (tried), and how many of them were 304 (hits). */
export type FormChecks = Partial<Record<ConditionalForm, { tried: number; hits: number }>>;

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
 * be trusted to skip checks, measured as the validators are (see domain/schedule/signals.ts):
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

/**
 * What revisit has measured about one origin (scheme, host, port), and the mode it
 * derived from that: how far the host's validators can be trusted.
 */
export interface HostRecord {
	v: number;
	/** Its sitemap lastmod, measured against checks (domain/schedule/signals.ts); absent until a sitemap URL of it is checked. */
	lastmod?: SignalTrust;
	/** Its Cache-Control max-age / Expires, measured the same way; absent until an answer of it said one and was checked again. */
	maxAge?: SignalTrust;
	/** The origin's robots.txt, with its validators (see net/robots/gate.ts). */
	robots?: RobotsCopy;
	/** Runs in which the host was probed. */
	runs: number;
	/** Start time of the last run that probed it (epoch ms). */
	lastRunAt: number;
	/** URLs of this host that have learned noise (`--learn-noise`). */
	noisy?: number;
	/** Its product pages (`--product`) that gave no offer at their last check, up to 100 (net/hosts/no-offer.ts). */
	noOffer?: string[];
	/**
	 * Its pages that need rendering (`--render`), per URL template, and the data requests they load in all: a new page of such a template skips the static try.
	 */
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
	 * The host's own audit rate (see net/hosts/audit-rate.ts): absent, the run's `--audit`. Halved
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
