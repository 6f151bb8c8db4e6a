import { map, type MonoTypeOperatorFunction } from 'rxjs';
import { RECORD_VERSION, type HostNoise, type UrlRecord } from '../store/types.js';
import { applyNoise, maskedHash } from '../content/noise.js';
import { keptAgain } from '../content/word-diff.js';
import { noiseOf, placesAt } from '../hosts/noise.js';
import { firstVerification } from '../hosts/verify.js';
import { liveRecord } from '../http/target.js';
import { hashText } from '../content/content-hash.js';
import type { Clock, ProbeResult, Reason, Task, Verdict } from '../types.js';
import { offerFields, offerMoved } from '../product/fields.js';

export interface CompareOptions {
	/** Recorded with new validators, so a later run under another encoding can drop the ETag. */
	acceptEncoding: string;
	/** `--verify-every` in ms (0 = off): a new URL's first verification is spread over it. */
	verifyEveryMs?: number | undefined;
	/** The noise a URL's host learned on several pages (see hosts/noise.ts), applied with the URL's own. */
	hostNoise?: ((origin: string) => readonly HostNoise[] | undefined) | undefined;
	/** `--keep-text` in bytes: the kept text made again with learned noise out is cut there too. */
	keepTextBytes?: number | undefined;
	/** A product page was read: whether it gave an offer (for `revisit stats`' list of pages without one). */
	offerRead?: ((origin: string, url: string, found: boolean) => void) | undefined;
}

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
	const reason = !record ? 'new' : probe.content ? byContent(record, probe) : isLive(record) && record.hash === probe.hash ? 'same-hash' : 'new-body';
	const verdict = verdictOf(url, CHANGED[reason], reason, probe, next);
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

const CHANGED: Record<Extract<Reason, 'new' | 'same-hash' | 'new-body' | 'same-content' | 'rebaseline' | 'selector-gone' | 'price' | 'availability'>, boolean> = {
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
function byContent(record: UrlRecord, probe: ProbeResult): Extract<Reason, 'same-hash' | 'new-body' | 'same-content' | 'rebaseline' | 'selector-gone' | 'price' | 'availability'> {
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
 * Attaches `verdict` and `next` to every probed task (in place: a task belongs to one
 * stage at a time).
 *
 * @example
 * tasks$.pipe(probe(deps, options), compare({ acceptEncoding: 'gzip' }, clock))
 */
export function compare(options: CompareOptions, clock: Clock): MonoTypeOperatorFunction<Task> {
	const { acceptEncoding } = options;
	const verifyEveryMs = options.verifyEveryMs ?? 0;
	return map((task) => {
		// A task judged already (a crawl's sweep phase) is judged again only after a fetch clears its verdict.
		if (task.skip || !task.probe || task.url === undefined || task.verdict) return task;
		// A 304 against a weak tag promises semantic, not byte, equality: the verdict says so for archivers.
		const weakSent = task.plan?.sendEtag === true && task.record?.etag?.startsWith('W/') === true;
		// Learned noise comes out of the counted text before it is judged.
		const text = task.probe.content?.text;
		const now = clock.now();
		const masked = text === undefined ? undefined : withNoise(task, text, now, options.hostNoise?.(task.origin ?? ''));
		if (masked) {
			task.probe.content = { ...task.probe.content!, hash: masked.then, noiseAt: now };
			// A diff shows what counted: the kept text loses the same places the hash does.
			if (task.probe.counted) task.probe.counted = keptAgain(task.probe.counted, masked.text, options.keepTextBytes);
			task.noise = masked.places;
		}
		const { verdict, next } = judge(task.url, task.record ?? null, task.probe, acceptEncoding, now, weakSent, verifyEveryMs);
		if (masked && next?.content) {
			// Judged by the noise the stored hash was taken under; kept under today's.
			next.content.hash = masked.now;
			task.probe.content = { ...task.probe.content!, hash: masked.now };
			if (masked.ambiguous && verdict.reason === 'new-body') Object.assign(verdict, { changed: false, reason: 'rebaseline' });
		}
		task.verdict = verdict;
		task.next = next;
		const content = task.probe.content;
		if (options.offerRead && task.origin !== undefined && verdict.reason !== 'error' && (content?.noOffer || content?.offer)) options.offerRead(task.origin, task.url, content.offer !== undefined);
		return task;
	});
}

/**
 * The counted text's hashes under learned noise: `now` under every place that applies
 * today (the page's own and its host's), `then` under those that applied when the stored
 * hash was taken, which is what it is compared with. When the two sets differ and the
 * text differs under the old one, the difference may lie in a newly learned place:
 * `ambiguous`, judged a `rebaseline` rather than a change. Undefined without noise.
 */
function withNoise(task: Task, text: string, now: number, host: readonly HostNoise[] | undefined): { now: string; then: string; ambiguous: boolean; text: string; places: number } | undefined {
	const record = task.record ?? undefined;
	const entries = noiseOf(record, host, task.url!);
	if (entries.length === 0 && record?.noise === undefined) return undefined;
	const today = placesAt(entries, now);
	const masked = applyNoise(text, today, record?.noise);
	const hashNow = hashText(masked);
	const places = today.length + (record?.noise?.length ?? 0);
	const stored = record?.content;
	const before = placesAt(entries, stored?.noiseAt ?? Number.NEGATIVE_INFINITY);
	if (stored === undefined || before.join('\n') === today.join('\n')) return { now: hashNow, then: hashNow, ambiguous: false, text: masked, places };
	const then = maskedHash(text, before, record?.noise);
	return { now: hashNow, then, ambiguous: then !== stored.hash, text: masked, places };
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
