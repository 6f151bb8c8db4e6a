import { describe, expect, it } from 'vitest';
import {
	lastmodSays,
	maxAgeSays,
	newSignalTrust,
	scoreSignal,
	SIGNAL_SAMPLE,
	signalSample,
	TRUST_AFTER,
	untested,
} from '../../../src/domain/schedule/signals.js';

const checked = Date.parse('2030-01-10T12:00:00Z');

describe('lastmodSays and maxAgeSays', () => {
	it('lastmod says changed when dated after the last check, a bare date counting as its whole day', () => {
		expect(lastmodSays('2030-01-10T13:00:00Z', checked)).toBe('changed');
		expect(lastmodSays('2030-01-10T11:00:00Z', checked)).toBe('unchanged');
		expect(lastmodSays('2030-01-10', checked)).toBe('changed');
		expect(lastmodSays('2030-01-09', checked)).toBe('unchanged');
		expect(lastmodSays('soon', checked)).toBeUndefined();
		expect(lastmodSays(undefined, checked)).toBeUndefined();
	});

	it('max-age says unchanged while the last answer is fresh, and nothing after', () => {
		expect(maxAgeSays({ freshUntil: 2000 }, 1999)).toBe('unchanged');
		expect(maxAgeSays({ freshUntil: 2000 }, 2000)).toBeUndefined();
		expect(maxAgeSays({}, 0)).toBeUndefined();
	});
});

describe('scoreSignal', () => {
	it('trusts lastmod after TRUST_AFTER announced changes in a row, and not before', () => {
		let trust = newSignalTrust();
		for (let i = 1; i < TRUST_AFTER; i++) {
			trust = scoreSignal(trust, 'lastmod', 'changed', true);
			expect(trust.trusted).toBe(false);
		}
		trust = scoreSignal(trust, 'lastmod', 'changed', true);
		expect(trust).toMatchObject({ trusted: true, right: TRUST_AFTER, wrong: 0, streak: TRUST_AFTER });
		expect(trust.reason).toContain(`last ${TRUST_AFTER} times`);
	});

	it('loses the trust the first time a signal said unchanged and the page had changed, and starts the streak again', () => {
		for (const signal of ['lastmod', 'maxAge'] as const) {
			let trust = newSignalTrust();
			const [says, changed]: ['changed' | 'unchanged', boolean] = signal === 'lastmod' ? ['changed', true] : ['unchanged', false];
			for (let i = 0; i < TRUST_AFTER + 2; i++) trust = scoreSignal(trust, signal, says, changed);
			expect(trust.trusted).toBe(true);
			trust = scoreSignal(trust, signal, 'unchanged', true);
			expect(trust).toMatchObject({ trusted: false, wrong: 1, streak: 0 });
			expect(trust.reason).toContain('found a change');
			expect(scoreSignal(trust, signal, says, changed).trusted).toBe(false);
		}
	});

	it('learns nothing from what says nothing about the signal', () => {
		const trust = newSignalTrust();
		expect(scoreSignal(trust, 'lastmod', 'changed', false)).toEqual(trust);
		expect(scoreSignal(trust, 'lastmod', 'unchanged', false)).toEqual(trust);
		expect(scoreSignal(trust, 'maxAge', 'changed', true)).toEqual(trust);
	});
});

describe('untested', () => {
	it('is true once no check has scored a signal for half of --verify-every, and never with verification off', () => {
		const DAY = 86_400_000;
		const trust = scoreSignal(newSignalTrust(), 'maxAge', 'unchanged', false, 10 * DAY);
		expect(trust.testedAt).toBe(10 * DAY);
		expect(untested(trust, 11 * DAY, 4 * DAY)).toBe(false);
		expect(untested(trust, 12 * DAY, 4 * DAY)).toBe(true);
		expect(untested(trust, 100 * DAY, 0)).toBe(false);
	});
});

describe('signalSample', () => {
	it('is SIGNAL_SAMPLE a run for runs a day or more apart, and SIGNAL_SAMPLE over a day of more frequent runs', () => {
		const DAY = 86_400_000;
		for (const interval of [undefined, 0, DAY, 7 * DAY]) expect(signalSample(interval)).toBe(SIGNAL_SAMPLE);
		expect(signalSample(DAY / 4)).toBeCloseTo(0.0025, 4);
		// Four runs a day, each sampling its share: checked anyway over the day as at one run a day.
		expect(1 - (1 - signalSample(DAY / 4)) ** 4).toBeCloseTo(SIGNAL_SAMPLE, 12);
	});
});
