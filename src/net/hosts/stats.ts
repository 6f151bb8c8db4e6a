import { effectiveMode } from './policy.js';
import type { HostRecord, SignalTrust, StoreReader } from '../../store/model/types.js';

/** One host's health as `revisit stats` shows it. */
export interface HostStats {
	host: string;
	urls: number;
	runs: number;
	conditional: number;
	notModified: number;
	/** 304s per conditional request; null before any was sent. */
	ratio304: number | null;
	mode: HostRecord['mode'];
	overridden: boolean;
	/** The churn guard is holding this host's changes back. */
	blocked: boolean;
	reason: string;
	etag: 'sent' | 'off';
	lastModified: 'sent' | 'off';
	audits: number;
	lies: number;
	/** The host's own audit rate (net/hosts/audit-rate.ts); null: none yet, its 304s are audited at the run's `--audit`. */
	auditRate: number | null;
	/** Clean audits in a row towards the next halving of that rate. */
	cleanAudits: number;
	method: 'get' | 'head';
	methodReason?: string | undefined;
	/** The conditional form the host gets (see net/hosts/forms.ts), `unmeasured` before its form check. */
	form: NonNullable<HostRecord['form']> | 'unmeasured';
	formReason?: string | undefined;
	errors: number;
	/** Validators refused because they could not be echoed safely (controls, CR/LF, over 1 KiB): never stored or sent. */
	badValidators: number;
	/** URLs that have learned noise (`--learn-noise`). */
	noisy: number;
	/** URLs its last budgeted run left for later although past their `--verify-every` bound. */
	pastBound: number;
	/** Its sitemap lastmod as a skip signal (domain/schedule/signals.ts); null until a sitemap URL of it was checked. */
	lastmod: SignalTrust | null;
	/** Its Cache-Control max-age / Expires as a skip signal, the same way; null until measured. */
	maxAge: SignalTrust | null;
	/** Places learned as noise on the host's pages, per URL template; `applies` (ISO time) once learned on enough pages to apply to all of them. */
	learned: Array<{ template: string; at: string; pages: number; since: string; applies?: string }>;
	/** Its pages that need rendering (`--render`), per URL template, with the data requests they load, which the next checks revalidate without a browser. */
	rendered: Array<{ template: string; pages: number; data: number }>;
	/** Its product pages (`--product`) that gave no offer at their last check (up to 100). */
	noOffer: string[];
}

export function hostStats(host: string, record: HostRecord): HostStats {
	const badValidators = record.badValidators ?? 0;
	const why = record.blocked
		? `blocked: ${record.blocked.changed} of ${record.blocked.probed} known URLs changed in one run (churn guard)`
		: record.override !== undefined
			? `set by hand (derived: ${record.mode}, ${record.modeReason})`
			: record.modeReason;
	return {
		host,
		urls: record.urls,
		noisy: record.noisy ?? 0,
		noOffer: record.noOffer ?? [],
		rendered: Object.entries(record.render ?? {}).map(([template, { pages, data }]) => ({ template, pages, data })),
		pastBound: record.pastBound ?? 0,
		learned: (record.noise ?? []).map((entry) => ({
			template: entry.template,
			at: entry.at,
			pages: entry.pages.length,
			since: new Date(entry.since).toISOString(),
			...(entry.applies !== undefined && { applies: new Date(entry.applies).toISOString() }),
		})),
		runs: record.runs,
		conditional: record.conditional,
		notModified: record.notModified,
		ratio304: record.conditional > 0 ? record.notModified / record.conditional : null,
		mode: effectiveMode(record),
		overridden: record.override !== undefined,
		blocked: record.blocked !== undefined,
		reason: [
			why,
			badValidators > 0 ? `${badValidators} unsafe validator${badValidators === 1 ? '' : 's'} refused` : '',
			record.pastBound
				? `${record.pastBound} URL${record.pastBound === 1 ? '' : 's'} past the --verify-every bound, left for later by the last run's --budget (raise ` +
					`the budget or the period)`
				: '',
		]
			.filter(Boolean)
			.join('; '),
		etag: record.etagOff ? 'off' : 'sent',
		lastModified: record.lastModifiedOff ? 'off' : 'sent',
		audits: record.audits,
		lies: record.lies,
		auditRate: record.auditRate ?? null,
		cleanAudits: record.cleanAudits ?? 0,
		method: record.method ?? 'get',
		methodReason: record.methodReason,
		form: record.form ?? 'unmeasured',
		formReason: record.formReason,
		errors: record.errors,
		badValidators,
		lastmod: record.lastmod ?? null,
		maxAge: record.maxAge ?? null,
	};
}

/**
 * Reads every host's stats from the store, optionally only those matching `filter`
 * (an origin, or a bare hostname matching any scheme and port).
 *
 * @example
 * for await (const row of readHostStats(store, 'example.org')) console.log(row.mode);
 */
export async function* readHostStats(store: StoreReader, filter?: string): AsyncIterable<HostStats> {
	for await (const [origin, record] of store.hostEntries()) {
		if (filter === undefined || matchesHost(origin, filter)) yield hostStats(origin, record);
	}
}

export function matchesHost(origin: string, filter: string): boolean {
	if (filter.includes('://')) {
		try {
			return new URL(filter).origin === origin;
		} catch {
			return false;
		}
	}
	return new URL(origin).hostname === filter.toLowerCase();
}
