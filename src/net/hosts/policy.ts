import type { HostMode, HostRecord, UrlRecord } from '../../store/model/types.js';
import type { Plan } from '../../domain/task/types.js';
import { hostAuditRate } from './audit-rate.js';
import { stripCoding } from './forms.js';
import type { TrustOptions } from './trust-options.js';

export type { Plan };

export const effectiveMode = (host: HostRecord): HostMode => host.override ?? host.mode;

const fullyTrusted = (host: HostRecord): boolean => host.override !== undefined || (host.mode === 'conditional' && !host.etagOff && !host.lastModifiedOff);

/**
 * Decides which validators to send for a URL and whether to audit the answer. Returns
 * the host with its re-test counter moved on, to be kept for the rest of the run. A URL
 * due for verification (`verify`) is always audited.
 *
 * @example
 * const { plan, host: next } = planProbe(host, record, trustDefaults, Math.random);
 */
export function planProbe(
	host: HostRecord,
	record: UrlRecord | undefined,
	options: TrustOptions,
	random: () => number,
	verify = false,
): { plan: Plan; host: HostRecord } {
	const hasEtag = record?.etag !== undefined;
	const hasLastModified = record?.lastModified !== undefined;
	let next = host;
	let retest = false;
	if (!fullyTrusted(host) && (hasEtag || hasLastModified)) {
		retest = host.sinceRetest + 1 >= options.retestEvery;
		next = { ...host, sinceRetest: retest ? 0 : host.sinceRetest + 1 };
	}
	const mode = effectiveMode(host);
	const forced = host.override === 'conditional';
	const conditional = mode === 'conditional';
	let sendEtag = hasEtag && ((conditional && (forced || !host.etagOff)) || retest);
	let sendLastModified = hasLastModified && ((conditional && (forced || !host.lastModifiedOff)) || retest);
	if (retest && mode === 'unconditional') {
		return { plan: { sendEtag: false, sendLastModified: false, audit: false, retest, canary: true }, host: next };
	}
	let stripEtag = false;
	// The form the host was measured to honour; a hand override sends everything stored.
	const form = host.override === undefined ? host.form : undefined;
	if (form === 'etag' && sendEtag) sendLastModified = false;
	else if (form === 'last-modified' && sendLastModified) sendEtag = false;
	else if ((form === 'etag-stripped' || form === 'etag-stripped-both') && sendEtag && stripCoding(record!.etag!) !== undefined) {
		stripEtag = true;
		if (form === 'etag-stripped') sendLastModified = false;
	}
	const anything = sendEtag || sendLastModified;
	// Sampled at the host's own rate, which clean audits lower (net/hosts/audit-rate.ts).
	const audit = anything && (verify || random() < hostAuditRate(host, options.auditRate));
	const plan: Plan = { sendEtag, sendLastModified, audit, retest };
	if (stripEtag) plan.stripEtag = true;
	if (verify) plan.verify = true;
	return { plan, host: next };
}
