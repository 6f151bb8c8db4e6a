import { nonNegativeInteger, positiveInteger } from '../../base/util/checks.js';
import { OptionError } from '../../base/errors/index.js';

/** Knobs of per-host trust, with the documented defaults. */
export interface TrustOptions {
	/** Fraction of conditional probes also fetched unconditionally to audit a 304. */
	auditRate: number;
	/** Below this 304 ratio a host's conditionals are switched off. */
	ignoredBelow: number;
	/** ... but only after this many conditional requests ... */
	minConditional: number;
	/** ... over at least this many runs. */
	minRuns: number;
	/** Unchanged bodies with a new validator before that validator is switched off. */
	rotateAfter: number;
	/** A switched-off host or validator is re-tested once in this many probes. */
	retestEvery: number;
	/** Honest audited 304s on re-test before a lying host is trusted again. */
	honestToRetrust: number;
	/** HEAD-versus-GET samples on a host's first run before `--method auto` picks HEAD. */
	headSample: number;
	/** URLs of a host whose conditional forms are checked before its form is chosen. */
	formSample: number;
	/** Longest a URL goes without its body confirmed by a full download (ms); 0 = never forced. */
	verifyEveryMs: number;
}

export const trustDefaults: TrustOptions = {
	auditRate: 0.02,
	ignoredBelow: 0.05,
	minConditional: 20,
	minRuns: 2,
	rotateAfter: 3,
	retestEvery: 50,
	honestToRetrust: 3,
	headSample: 3,
	formSample: 2,
	// Daily runs then download about 1/30 of the bodies for verification, and fewer where
	// audits confirmed them meanwhile: under 5% with the 2% audit (bench/TRUST.md).
	verifyEveryMs: 30 * 86_400_000,
};

export function normaliseTrustOptions(input: Partial<TrustOptions> = {}): TrustOptions {
	const defined = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
	const options: TrustOptions = { ...trustDefaults, ...defined };
	for (const key of ['auditRate', 'ignoredBelow'] as const) {
		const value = options[key];
		if (!Number.isFinite(value) || value < 0 || value > 1) throw new OptionError(key, `Expected \`${key}\` to be between 0 and 1, got \`${value}\``);
	}
	for (const key of ['minConditional', 'minRuns', 'rotateAfter', 'retestEvery', 'honestToRetrust', 'headSample', 'formSample'] as const)
		positiveInteger(key, options[key]);
	nonNegativeInteger('verifyEveryMs', options.verifyEveryMs);
	return options;
}
