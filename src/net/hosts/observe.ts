import type { FormChecks, HostRecord } from '../../store/model/types.js';
import type { FormCheck } from '../../domain/task/types.js';
import { countAudit } from './audit-rate.js';
import { chooseForm } from './forms.js';
import type { Plan } from './policy.js';
import type { TrustOptions } from './trust-options.js';

/** What one probe showed about its host. */
export interface Observation {
	plan: Plan;
	/** Final status, or 0 for a failure. */
	status: number;
	error?: boolean;
	/** A 200 whose body equals the stored one. */
	sameBody?: boolean;
	/** With sameBody: the stored validator existed and the new one differs. */
	etagChanged?: boolean;
	lastModifiedChanged?: boolean;
	/** The outcome of an audit of a 304. */
	audit?: 'honest' | 'lied';
	/** The URL was stored for the first time. */
	newUrl?: boolean;
	/** A HEAD-versus-GET sample. */
	headCheck?: { agree: boolean; reason: string };
	/** The server sent a validator that could not be echoed safely. */
	unsafeValidator?: boolean;
	/** Conditional forms put to the server right after a full answer, and what each got. */
	formCheck?: readonly FormCheck[];
}

const pct = (ratio: number): string => `${Math.round(ratio * 1000) / 10}%`;

/**
 * Folds one probe's evidence into its host's counters, and changes the derived mode
 * when the evidence says so: rotating validators are switched off, a host whose
 * conditionals buy nothing goes hash-only, a host caught lying goes unconditional, and
 * a re-test that comes back good restores trust.
 *
 * @example
 * host = observe(host, { plan, status: 304 }, trustDefaults, Date.now());
 */
export function observe(host: HostRecord, seen: Observation, options: TrustOptions, now: number): HostRecord {
	const h: HostRecord = { ...host };
	const { plan } = seen;
	const conditional = plan.sendEtag || plan.sendLastModified;
	const setMode = (mode: HostRecord['mode'], reason: string): void => {
		h.mode = mode;
		h.modeReason = reason;
		h.modeChangedAt = now;
	};
	if (seen.newUrl) h.urls++;
	if (seen.unsafeValidator) h.badValidators = (h.badValidators ?? 0) + 1;
	if (seen.error) {
		h.errors++;
		return h;
	}
	if (conditional) h.conditional++;
	if (seen.status === 304) h.notModified++;
	if (conditional && seen.sameBody) h.missed304++;
	if (seen.sameBody && seen.etagChanged !== undefined) {
		h.etagCompared++;
		if (seen.etagChanged) h.etagChurn++;
	}
	if (seen.sameBody && seen.lastModifiedChanged !== undefined) {
		h.lastModifiedCompared++;
		if (seen.lastModifiedChanged) h.lastModifiedChurn++;
	}
	if (seen.audit) {
		h.audits++;
		countAudit(h, seen.audit);
	}
	if (seen.headCheck) decideMethod(h, seen.headCheck, options);
	if (seen.formCheck) checkForms(h, seen.formCheck, options, setMode);

	if (seen.audit === 'lied') {
		h.lies++;
		h.honestRetests = 0;
		setMode('unconditional', 'an audited 304 hid a real change: 304s are not trusted');
		return h;
	}
	if (plan.canary) {
		// The canary can't match: a 304 to it is a lie, a full answer is honest.
		if (seen.status === 304) {
			h.honestRetests = 0;
			h.modeReason = 'still lying: answered 304 to a validator that cannot match';
		} else if (seen.status >= 200 && seen.status < 300) {
			h.honestRetests++;
			if (h.honestRetests >= options.honestToRetrust) {
				resetRatio(h);
				setMode('conditional', `re-trusted: ${h.honestRetests} re-tests with a validator that cannot match got full answers`);
			}
		}
		return h;
	}
	if (plan.retest && seen.status === 304) {
		if (h.mode === 'hash-only') {
			resetRatio(h);
			setMode('conditional', 're-trusted: answered 304 on re-test');
			// Measure its forms again: the one that failed may not be the one that works now.
			if (h.form === 'none') delete h.form;
		}
		if (plan.sendEtag && h.etagOff) {
			h.etagOff = false;
			h.etagCompared = h.etagChurn = 0;
		}
		if (plan.sendLastModified && h.lastModifiedOff) {
			h.lastModifiedOff = false;
			h.lastModifiedCompared = h.lastModifiedChurn = 0;
		}
	}
	if (!h.etagOff && h.etagChurn >= options.rotateAfter && h.etagChurn * 2 >= h.etagCompared) {
		h.etagOff = true;
		// A host that is not conditional keeps the reason it is not.
		if (h.mode === 'conditional') setMode('conditional', `ETag changes while the body does not (${h.etagChurn} of ${h.etagCompared}): ETag not sent`);
	}
	if (!h.lastModifiedOff && h.lastModifiedChurn >= options.rotateAfter && h.lastModifiedChurn * 2 >= h.lastModifiedCompared) {
		h.lastModifiedOff = true;
		if (h.mode === 'conditional')
			setMode('conditional', `Last-Modified changes while the body does not (${h.lastModifiedChurn} of ${h.lastModifiedCompared}): Last-Modified not sent`);
	}
	const unchanged = h.notModified + h.missed304;
	if (h.mode === 'conditional' && h.runs >= options.minRuns && h.conditional >= options.minConditional && unchanged > 0) {
		const ratio = h.notModified / unchanged;
		if (ratio < options.ignoredBelow) {
			setMode('hash-only', `conditionals ignored: ${pct(ratio)} of ${unchanged} unchanged answers were 304 (threshold ${pct(options.ignoredBelow)})`);
		}
	}
	return h;
}

function decideMethod(h: HostRecord, check: { agree: boolean; reason: string }, options: TrustOptions): void {
	h.headChecks++;
	if (!check.agree) {
		h.headDisagreements++;
		h.method = 'get';
		h.methodReason = check.reason;
	} else if (h.method === undefined && h.headDisagreements === 0 && h.headChecks >= options.headSample) {
		h.method = 'head';
		h.methodReason = `HEAD agreed with GET on ${h.headChecks} samples`;
	}
}

/**
 * Counts a form check and chooses the host's form: the first 304 settles it (the audit
 * keeps it honest); after `formSample` URLs where no form got one, the host goes
 * hash-only at once. A hash-only host, measured before forms were, for which a form
 * works is trusted again with that form.
 */
function checkForms(h: HostRecord, checks: readonly FormCheck[], options: TrustOptions, setMode: (mode: HostRecord['mode'], reason: string) => void): void {
	const counts: FormChecks = { ...h.formChecks };
	for (const { form, status } of checks) {
		const count = { ...(counts[form] ?? { tried: 0, hits: 0 }) };
		count.tried++;
		if (status === 304) count.hits++;
		counts[form] = count;
	}
	h.formChecks = counts;
	if (h.form !== undefined) return;
	const hit = checks.some((check) => check.status === 304);
	if (!hit) {
		h.formSamples = (h.formSamples ?? 0) + 1;
		if (h.formSamples < options.formSample) return;
	}
	const { form, reason } = chooseForm(counts);
	h.form = form;
	h.formReason = reason;
	if (h.mode === 'unconditional') return;
	if (form === 'none') {
		if (h.mode === 'conditional') setMode('hash-only', reason);
	} else if (h.mode === 'hash-only') {
		resetRatio(h);
		setMode('conditional', `re-trusted: ${reason}`);
	} else if (form !== 'both') {
		// What was counted so far went out in a form the host ignores.
		resetRatio(h);
		setMode('conditional', reason);
	}
}

function resetRatio(h: HostRecord): void {
	h.conditional = 0;
	h.notModified = 0;
	h.missed304 = 0;
}
