import type { UrlRecord } from '../../store/model/types.js';
import type { FormCheck, ProbeResult } from '../../domain/task/types.js';
import { FORM_ORDER, formHeaders } from './forms.js';

/**
 * Sends one GET: `headers` only (the body is not read), in `full` (the probe's own body
 * mode), or `unless` the headers show the stored validators unchanged on a 2xx: a body
 * the host should not have sent, so it is not read.
 */
export type Ask = (headers: Record<string, string> | (() => Record<string, string>), read: 'headers' | 'full' | 'unless') => Promise<ProbeResult>;

const ok = (result: ProbeResult): boolean => !result.error && result.status >= 200 && result.status < 300;
const sameHeaders = (a: Record<string, string>, b: Record<string, string>): boolean =>
	Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([name, value]) => b[name] === value);

/**
 * Probes a URL of a host whose conditional form is not measured yet, without reading a
 * body the host should not have sent. It asks with the planned headers: a 304 settles
 * the form. A 2xx whose validators moved is read as usual (the page changed, or its
 * validators rotate). A 2xx with the stored validators unchanged means the host ignored
 * them: the body is left unread and the other forms are put to it, headers only; the
 * first 304 is the answer. Only if none gets one is the body read. When a body read turns
 * out unchanged, the forms tried say what the host ignores (`formCheck`); a changed page
 * says nothing about the host.
 *
 * @example
 * const result = await probeForms(record, plannedHeaders, ask, { headersOnly: false, measuring: () => book.get(origin).form === undefined });
 */
export async function probeForms(
	stored: UrlRecord,
	planned: () => Record<string, string>,
	ask: Ask,
	options: { headersOnly: boolean; measuring(): boolean },
): Promise<ProbeResult> {
	let sent: Record<string, string> = {};
	const first = await ask(() => (sent = planned()), 'unless');
	if (first.status === 304) return { ...first, formCheck: [{ form: 'both', status: 304 }] };
	if (!ok(first)) return first;
	const checks: FormCheck[] = [{ form: 'both', status: first.status }];
	const unmoved = first.etag === stored.etag && first.lastModified === stored.lastModified;
	let full = first;
	if (first.headersOnly) {
		// Another probe may have settled the host's form meanwhile: then only the body is wanted.
		if (unmoved && options.measuring()) {
			const hit = await askForms(stored, sent, ask, checks);
			if (hit) return { ...hit, formCheck: checks };
		}
		// A candidates sweep reads no body: validators ignored in every form are the evidence it has.
		if (options.headersOnly) return unmoved ? { ...first, formCheck: checks } : first;
		full = await ask(sent, 'full');
	}
	if (!ok(full) || full.hash === undefined || full.hash !== stored.hash || !options.measuring()) return full;
	// Unchanged while its validators moved: which form gets a 304 with the new ones?
	if (!unmoved) await askForms(full, {}, ask, checks);
	return { ...full, formCheck: checks };
}

/** Puts each form other than the one already sent, headers only, until one gets a 304. */
async function askForms(
	validators: Pick<UrlRecord, 'etag' | 'lastModified'>,
	sent: Record<string, string>,
	ask: Ask,
	checks: FormCheck[],
): Promise<ProbeResult | undefined> {
	for (const form of FORM_ORDER) {
		const headers = formHeaders(form, validators);
		if (!headers || sameHeaders(headers, sent)) continue;
		const answer = await ask(headers, 'headers');
		if (answer.status !== 304 && !ok(answer)) return undefined;
		checks.push({ form, status: answer.status });
		if (answer.status === 304) return answer;
	}
	return undefined;
}
