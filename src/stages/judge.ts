import { RECORD_VERSION, type UrlRecord } from '../store/model/types.js';
import { firstVerification } from '../net/hosts/verify.js';
import { liveRecord } from '../net/http/target.js';
import type { ProbeResult, Reason, Verdict } from '../domain/task/types.js';
import { offerFields, offerMoved } from '../domain/product/fields.js';
import { bytesMoved } from '../domain/content/source-parts.js';

// The verdict itself, apart from the stage that feeds it (compare.ts masks learned noise
// first): pure, so that it is read and tested on a record and a probe result alone.

const isLive = (record: UrlRecord | null | undefined): record is UrlRecord => liveRecord(record) !== undefined;

/**
 * Decides one URL's verdict from its stored record and probe result, and the record
 * to commit once the verdict is out. Pure: no I/O, the clock is only read. `weakSent`
 * says the request carried a weak (W/) ETag, so that a 304 promises semantic, not byte,
 * equality.
 *
 * @example
 * judge('https://example.org/', null, probeResult, 'gzip', Date.now())
 * // { verdict: { url, changed: true, reason: 'new', ... }, next: { ... } }
 */
export function judge(
	url: string,
	record: UrlRecord | null,
	probe: ProbeResult,
	acceptEncoding: string,
	now: number,
	weakSent = false,
	verifyEveryMs = 0,
): { verdict: Verdict; next?: UrlRecord } {
	if (probe.error) return { verdict: verdictOf(url, false, 'error', probe, undefined, probe.error) };
	const audit = probe.status === 304 && isLive(record) ? probe.audit : undefined;
	if (audit && !audit.error && audit.status !== 304) {
		// The unconditional re-fetch is the truth a lying 304 would have hidden.
		const audited = judge(url, record, audit, acceptEncoding, now, false, verifyEveryMs);
		if (audited.verdict.changed) return { verdict: { ...audited.verdict, reason: 'audit' }, next: audited.next };
	}
	if (probe.status === 304) {
		if (!isLive(record)) {
			const error = { code: 'UNEXPECTED_304', message: 'server answered 304 to a request with no validators' };
			return { verdict: verdictOf(url, false, 'error', probe, undefined, error) };
		}
		// Keep stored validators unless the server sent new ones (RFC 9110 §15.4.5); where the request ended is this probe's.
		const next: UrlRecord = { ...(record.finalUrl === undefined && record.permanent === undefined ? record : withoutWhere(record)), lastChecked: now };
		if (probe.etag !== undefined) next.etag = probe.etag;
		if (probe.lastModified !== undefined) next.lastModified = probe.lastModified;
		setWhere(next, url, probe);
		// An unconditional re-fetch found the same body: the 304 is confirmed.
		if (audit?.hash !== undefined && audit.hash === record.hash) confirmed(next, now);
		const verdict = verdictOf(url, false, '304', probe, next, undefined, weakSent);
		// Not Modified: the offer counted last stands, and an --ndjson --all reader sees it.
		if (record.content?.product) verdict.product = record.content.product;
		else if (record.content?.noOffer) noOffer(verdict);
		return { verdict, next };
	}
	if (probe.status === 404 || probe.status === 410) {
		const next: UrlRecord = { v: RECORD_VERSION, status: probe.status, lastChecked: now };
		setWhere(next, url, probe);
		return { verdict: verdictOf(url, isLive(record), 'gone', probe), next };
	}
	if (probe.headersOnly) {
		// Headers only (a candidates sweep): it may have changed; the fetch phase decides and commits.
		return { verdict: verdictOf(url, true, 'candidate', probe, { etag: probe.etag, lastModified: probe.lastModified }) };
	}
	const next: UrlRecord = { v: RECORD_VERSION, status: probe.status, lastChecked: now };
	if (probe.etag !== undefined) next.etag = probe.etag;
	if (probe.lastModified !== undefined) next.lastModified = probe.lastModified;
	if (probe.hash !== undefined) next.hash = probe.hash;
	setWhere(next, url, probe);
	next.size = probe.bytes;
	next.encoding = acceptEncoding;
	// Where its payload was last archived stays known until a WARC run archives it again.
	if (record?.warc !== undefined) next.warc = record.warc;
	if (probe.hash !== undefined) {
		next.verifiedAt = now;
		if (!record && verifyEveryMs > 0) next.verifyBy = firstVerification(url, now, verifyEveryMs);
	}
	if (probe.content) {
		const { text: _text, offer: _offer, ...content } = probe.content;
		next.content = content;
		if (record?.noise !== undefined) next.noise = record.noise;
		if (record?.learned !== undefined) next.learned = record.learned;
	}
	if (probe.parts !== undefined) next.parts = probe.parts;
	const reason = !record ? 'new' : probe.content ? byContent(record, probe) : isLive(record) && record.hash === probe.hash ? 'same-hash' : 'new-body';
	const verdict = verdictOf(url, CHANGED[reason], reason, probe, next);
	// The bytes moved and the text a reader sees did not: say where they moved, since no diff of the text can.
	const note =
		reason === 'new-body' && isLive(record) && record.parts !== undefined && probe.parts !== undefined ? bytesMoved(record.parts, probe.parts) : undefined;
	if (note !== undefined) verdict.note = note;
	if (probe.renderData) next.render = { data: probe.renderData };
	const before = isLive(record) ? record.content?.product : undefined;
	if (probe.content?.offer) Object.assign(verdict, offerFields(probe.content.offer, before));
	// The offer is gone from the page (selector-gone): what it was is all there is to say.
	else if (before && probe.content) verdict.previous = before;
	if (probe.content?.noOffer) noOffer(verdict);
	if (probe.rendered) verdict.rendered = true;
	return { verdict, next };
}

/** A product page that gives no offer says so, rather than being `same-content` for ever without a word. */
function noOffer(verdict: Verdict): void {
	verdict.product = null;
	verdict.problem = 'no-offer';
}

const CHANGED: Record<
	Extract<Reason, 'new' | 'same-hash' | 'new-body' | 'same-content' | 'rebaseline' | 'selector-gone' | 'price' | 'availability'>,
	boolean
> = {
	new: true,
	price: true,
	availability: true,
	'same-hash': false,
	'new-body': true,
	'same-content': false,
	rebaseline: false,
	'selector-gone': true,
};

/**
 * With content rules, a 200 is judged by what the rules counted: the same content is
 * unchanged whatever the raw bytes did (`same-content`; `same-hash` when the bytes are
 * the same too); content counted by other rules than last time becomes the baseline
 * without a report (`rebaseline`), so editing a rule never floods the output; a selector
 * that matched before and matches nothing now is a change of its own (`selector-gone`).
 */
function byContent(
	record: UrlRecord,
	probe: ProbeResult,
): Extract<Reason, 'same-hash' | 'new-body' | 'same-content' | 'rebaseline' | 'selector-gone' | 'price' | 'availability'> {
	const before = record.content;
	const now = probe.content!;
	if (!isLive(record)) return 'new-body';
	// No rule for this URL and none before: the whole body counts, as without rules.
	if (before === undefined && now.rules === '-') return record.hash === probe.hash ? 'same-hash' : 'new-body';
	if (before === undefined || before.rules !== now.rules) return 'rebaseline';
	if (before.matched && !now.matched) return 'selector-gone';
	if (before.hash !== now.hash) return now.product && before.product ? offerMoved(before.product, now.product) : 'new-body';
	return record.hash === probe.hash ? 'same-hash' : 'same-content';
}

/**
 * A verdict with its fields in the documented NDJSON order (url, changed, reason,
 * status, etag, weak, lastModified, hash, verifiedAt, finalUrl, bytes, ms, error) and absent ones
 * left out. Built field by field: this runs for every URL.
 */
function verdictOf(
	url: string,
	changed: boolean,
	reason: Reason,
	probe: ProbeResult,
	validators?: Pick<UrlRecord, 'etag' | 'lastModified' | 'hash' | 'verifiedAt'>,
	error?: Verdict['error'],
	weak = false,
): Verdict {
	const verdict: Verdict = { url, changed, reason };
	if (probe.status) verdict.status = probe.status;
	if (validators?.etag !== undefined) verdict.etag = validators.etag;
	if (weak) verdict.weak = true;
	if (validators?.lastModified !== undefined) verdict.lastModified = validators.lastModified;
	if (validators?.hash !== undefined) verdict.hash = validators.hash;
	if (validators?.verifiedAt !== undefined) verdict.verifiedAt = isoTime(validators.verifiedAt);
	if (probe.finalUrl !== url) verdict.finalUrl = probe.finalUrl;
	verdict.bytes = probe.bytes;
	verdict.ms = probe.ms;
	if (error) verdict.error = error;
	return verdict;
}

// URLs verified in the same millisecond share one string: a sweep's records come in runs of them.
let lastTime = Number.NaN;
let lastIso = '';
function isoTime(ms: number): string {
	if (ms !== lastTime) {
		lastIso = new Date(ms).toISOString();
		lastTime = ms;
	}
	return lastIso;
}

/** Where this probe's request ended: kept only when it is not the URL itself. */
function setWhere(next: UrlRecord, url: string, probe: ProbeResult): void {
	if (probe.finalUrl !== url) next.finalUrl = probe.finalUrl;
	if (probe.permanent) next.permanent = true;
}

/** The body was confirmed now: the next verification is a whole period away. */
function confirmed(next: UrlRecord, now: number): void {
	next.verifiedAt = now;
	delete next.verifyBy;
}

function withoutWhere(record: UrlRecord): UrlRecord {
	const { finalUrl: _finalUrl, permanent: _permanent, ...rest } = record;
	return rest;
}
