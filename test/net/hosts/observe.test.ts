import { describe, expect, it } from 'vitest';
import { observe, type Observation } from '../../../src/net/hosts/observe.js';
import type { Plan } from '../../../src/net/hosts/policy.js';
import { newHostRecord } from '../../../src/net/hosts/record.js';
import { trustDefaults } from '../../../src/net/hosts/trust-options.js';
import type { HostRecord } from '../../../src/store/model/types.js';

const etagOnly: Plan = { sendEtag: true, sendLastModified: false, audit: false, retest: false };
const both: Plan = { sendEtag: true, sendLastModified: true, audit: false, retest: false };
const run = (host: HostRecord, seen: Observation, times: number) => {
	let h = host;
	for (let i = 0; i < times; i++) h = observe(h, seen, trustDefaults, 1000);
	return h;
};
const twoRuns = { ...newHostRecord(0), runs: 2 };

describe('observe', () => {
	it('switches the ETag off when it changes while the body does not, keeping Last-Modified', () => {
		const h = run(twoRuns, { plan: both, status: 200, sameBody: true, etagChanged: true, lastModifiedChanged: false }, 3);
		expect(h).toMatchObject({ etagOff: true, etagChurn: 3, mode: 'conditional' });
		expect(h.lastModifiedOff).toBeUndefined();
		expect(h.modeReason).toBe('ETag changes while the body does not (3 of 3): ETag not sent');
	});

	it('switches Last-Modified off when it is always new, keeping the ETag', () => {
		const h = run(twoRuns, { plan: both, status: 200, sameBody: true, etagChanged: false, lastModifiedChanged: true }, 3);
		expect(h).toMatchObject({ lastModifiedOff: true });
		expect(h.etagOff).toBeUndefined();
	});

	it('does not call a validator rotating when it changes along with the body', () => {
		const h = run(twoRuns, { plan: etagOnly, status: 200, sameBody: false }, 10);
		expect(h.etagOff).toBeUndefined();
		expect(h.mode).toBe('conditional');
	});

	it('turns conditionals off after two runs and 20 conditional requests with a 304 ratio under 5%', () => {
		const ignored: Observation = { plan: etagOnly, status: 200, sameBody: true, etagChanged: false };
		expect(run({ ...newHostRecord(0), runs: 1 }, ignored, 30).mode).toBe('conditional');
		expect(run(twoRuns, ignored, 19).mode).toBe('conditional');
		const h = run(twoRuns, ignored, 20);
		expect(h).toMatchObject({ mode: 'hash-only', modeReason: 'conditionals ignored: 0% of 20 unchanged answers were 304 (threshold 5%)' });
	});

	it('keeps conditionals on for a host that answers 304 when nothing changed', () => {
		let h = run(twoRuns, { plan: etagOnly, status: 304 }, 18);
		h = run(h, { plan: etagOnly, status: 200, sameBody: true, etagChanged: false }, 2);
		expect(h.mode).toBe('conditional');
	});

	it('marks a host unconditional when an audit catches a lying 304, and re-trusts it only after canary re-tests get full answers', () => {
		let h = observe(twoRuns, { plan: { ...etagOnly, audit: true }, status: 304, audit: 'lied' }, trustDefaults, 5);
		expect(h).toMatchObject({ mode: 'unconditional', lies: 1, audits: 1, modeChangedAt: 5 });
		const canary = { sendEtag: false, sendLastModified: false, audit: false, retest: true, canary: true };
		// A 304 to a tag that can't match is a lie, even when the page did not change.
		h = run(h, { plan: canary, status: 200 }, 2);
		h = observe(h, { plan: canary, status: 304, audit: 'honest' }, trustDefaults, 6);
		expect(h).toMatchObject({ mode: 'unconditional', honestRetests: 0, modeReason: 'still lying: answered 304 to a validator that cannot match' });
		h = run(h, { plan: canary, status: 200, sameBody: true }, 3);
		expect(h).toMatchObject({ mode: 'conditional', modeReason: 're-trusted: 3 re-tests with a validator that cannot match got full answers' });
	});

	it('re-trusts a hash-only host whose re-test gets a 304, and a rotating ETag that stops rotating', () => {
		const host: HostRecord = { ...twoRuns, mode: 'hash-only', etagOff: true };
		const h = observe(host, { plan: { ...etagOnly, retest: true }, status: 304 }, trustDefaults, 9);
		expect(h).toMatchObject({ mode: 'conditional', etagOff: false, modeReason: 're-trusted: answered 304 on re-test' });
	});

	it('counts errors and new URLs without touching the mode', () => {
		const h = observe(twoRuns, { plan: etagOnly, status: 0, error: true, newUrl: true }, trustDefaults, 1);
		expect(h).toMatchObject({ errors: 1, urls: 1, conditional: 0, mode: 'conditional' });
	});
});
