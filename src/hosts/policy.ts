import type { HostMode, HostRecord, UrlRecord } from '../store/types.js';
import type { TrustOptions } from './trust-options.js';

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
}

export const effectiveMode = (host: HostRecord): HostMode => host.override ?? host.mode;

const fullyTrusted = (host: HostRecord): boolean =>
	host.override !== undefined || (host.mode === 'conditional' && !host.etagOff && !host.lastModifiedOff);

/**
 * Decides which validators to send for a URL and whether to audit the answer. Returns
 * the host with its re-test counter moved on, to be kept for the rest of the run.
 *
 * @example
 * const { plan, host: next } = planProbe(host, record, trustDefaults, Math.random);
 */
export function planProbe(
	host: HostRecord,
	record: UrlRecord | undefined,
	options: TrustOptions,
	random: () => number,
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
	const sendEtag = hasEtag && ((conditional && (forced || !host.etagOff)) || retest);
	const sendLastModified = hasLastModified && ((conditional && (forced || !host.lastModifiedOff)) || retest);
	if (retest && mode === 'unconditional') {
		return { plan: { sendEtag: false, sendLastModified: false, audit: false, retest, canary: true }, host: next };
	}
	const anything = sendEtag || sendLastModified;
	const audit = anything && random() < options.auditRate;
	return { plan: { sendEtag, sendLastModified, audit, retest }, host: next };
}
