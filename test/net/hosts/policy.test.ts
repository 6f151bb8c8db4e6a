import { describe, expect, it } from 'vitest';
import { planProbe } from '../../../src/net/hosts/policy.js';
import { newHostRecord } from '../../../src/net/hosts/record.js';
import { trustDefaults } from '../../../src/net/hosts/trust-options.js';
import type { HostRecord, UrlRecord } from '../../../src/store/model/types.js';

const record: UrlRecord = { v: 1, status: 200, etag: '"a"', lastModified: 'Mon, 01 Jan 2024 00:00:00 GMT', hash: 'h', lastChecked: 0 };
const never = () => 0.99;
const host = (over: Partial<HostRecord> = {}): HostRecord => ({ ...newHostRecord(0), ...over });

describe('planProbe', () => {
	it('sends both stored validators to a trusted host', () => {
		expect(planProbe(host(), record, trustDefaults, never).plan).toEqual({ sendEtag: true, sendLastModified: true, audit: false, retest: false });
	});

	it('sends nothing for a URL with no stored validators, and never audits it', () => {
		expect(planProbe(host(), undefined, trustDefaults, () => 0).plan).toEqual({ sendEtag: false, sendLastModified: false, audit: false, retest: false });
	});

	it('leaves out a switched-off validator', () => {
		expect(planProbe(host({ etagOff: true }), record, trustDefaults, never).plan).toMatchObject({ sendEtag: false, sendLastModified: true });
	});

	it('sends no validators to a lying host, except a canary that cannot match on every 50th probe', () => {
		let h = host({ mode: 'unconditional' });
		const plans = [];
		for (let i = 0; i < 100; i++) {
			const result = planProbe(h, record, trustDefaults, never);
			plans.push(result.plan);
			h = result.host;
		}
		const retests = plans.filter((plan) => plan.retest);
		expect(retests).toHaveLength(2);
		expect(retests[0]).toEqual({ sendEtag: false, sendLastModified: false, audit: false, retest: true, canary: true });
		expect(plans.filter((plan) => !plan.retest).every((plan) => !plan.sendEtag && !plan.sendLastModified)).toBe(true);
	});

	it('re-tests a hash-only host with its real validators', () => {
		let h = host({ mode: 'hash-only' });
		let plan: ReturnType<typeof planProbe>['plan'] | undefined;
		for (let i = 0; i < 50; i++) ({ plan, host: h } = planProbe(h, record, trustDefaults, never));
		expect(plan).toEqual({ sendEtag: true, sendLastModified: true, audit: false, retest: true });
	});

	it('audits a sample at the audit rate', () => {
		expect(planProbe(host(), record, trustDefaults, () => 0.01).plan.audit).toBe(true);
		expect(planProbe(host(), record, trustDefaults, () => 0.03).plan.audit).toBe(false);
	});

	it('obeys a manual override over the derived mode', () => {
		expect(planProbe(host({ mode: 'hash-only', override: 'conditional', etagOff: true }), record, trustDefaults, never).plan).toMatchObject({
			sendEtag: true,
			sendLastModified: true,
			retest: false,
		});
		expect(planProbe(host({ override: 'hash-only' }), record, trustDefaults, never).plan).toMatchObject({
			sendEtag: false,
			sendLastModified: false,
			retest: false,
		});
	});

	it('sends the form the host was measured to honour', () => {
		const gz: UrlRecord = { ...record, etag: '"a-gzip"' };
		expect(planProbe(host({ form: 'last-modified' }), gz, trustDefaults, never).plan).toMatchObject({ sendEtag: false, sendLastModified: true });
		expect(planProbe(host({ form: 'etag' }), gz, trustDefaults, never).plan).toMatchObject({ sendEtag: true, sendLastModified: false });
		expect(planProbe(host({ form: 'etag-stripped' }), gz, trustDefaults, never).plan).toMatchObject({
			sendEtag: true,
			stripEtag: true,
			sendLastModified: false,
		});
		expect(planProbe(host({ form: 'etag-stripped-both' }), gz, trustDefaults, never).plan).toMatchObject({
			sendEtag: true,
			stripEtag: true,
			sendLastModified: true,
		});
		// A URL without the form's validator gets what it has.
		expect(planProbe(host({ form: 'last-modified' }), { ...record, lastModified: undefined }, trustDefaults, never).plan).toMatchObject({ sendEtag: true });
		// A hand override sends everything stored.
		expect(planProbe(host({ form: 'last-modified', override: 'conditional' }), gz, trustDefaults, never).plan).toMatchObject({
			sendEtag: true,
			sendLastModified: true,
		});
	});

	it('audits every URL due for verification, whatever the audit rate', () => {
		expect(planProbe(host(), record, trustDefaults, never, true).plan).toEqual({
			sendEtag: true,
			sendLastModified: true,
			audit: true,
			retest: false,
			verify: true,
		});
	});
});
