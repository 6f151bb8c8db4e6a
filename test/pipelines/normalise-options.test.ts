import { describe, expect, it } from 'vitest';
import { normaliseSweepOptions } from '../../src/pipelines/normalise-options.js';
import { sweepDefaults } from '../../src/pipelines/sweep-defaults.js';

describe('normaliseSweepOptions', () => {
	it('fills the defaults', () => {
		expect(normaliseSweepOptions({}, {})).toEqual(sweepDefaults);
	});

	it('reads $REVISIT_ROBOTS, $REVISIT_NOW and $REVISIT_BROWSER from the environment it is given, under what the options say', () => {
		const env = { REVISIT_ROBOTS: 'obey', REVISIT_NOW: '2026-01-31T12:00:00Z', REVISIT_BROWSER: '/opt/chromium/chrome' };
		expect(normaliseSweepOptions({}, env)).toMatchObject({ robots: 'obey', now: Date.parse('2026-01-31T12:00:00Z') });
		expect(normaliseSweepOptions({ robots: 'ignore', now: 5 }, env)).toMatchObject({ robots: 'ignore', now: 5 });
		// A run whose rules render gets the environment's browser, with --render's other settings at their defaults.
		expect(normaliseSweepOptions({ rules: [{ render: 'always' }] }, env).render).toEqual({
			mode: 'never',
			timeoutMs: 15_000,
			concurrency: 2,
			memoryBytes: 1024 ** 3,
			browser: '/opt/chromium/chrome',
		});
		expect(() => normaliseSweepOptions({}, { REVISIT_NOW: 'soon' })).toThrow('--now (or $REVISIT_NOW) must be a time');
	});

	it('keeps at least twice as many lines in flight as request slots, 64 at the least, unless told', () => {
		expect(normaliseSweepOptions({ concurrency: 8 }).highWater).toBe(64);
		expect(normaliseSweepOptions({ concurrency: 100 }).highWater).toBe(200);
		expect(normaliseSweepOptions({ concurrency: 100, highWater: 20 }).highWater).toBe(20);
	});

	it.each([
		[{ concurrency: 0 }, /concurrency/],
		[{ highWater: 1.5 }, /highWater/],
		[{ method: 'post' as 'get' }, /method/],
		[{ acceptEncoding: 'gzip\r\nx: y' }, /acceptEncoding/],
		[{ rules: [{ match: 'fusion-backpack', select: ['h1'] }] }, /rule 1: match "fusion-backpack": a word without a dot reads as a host name/],
		[
			{
				headers: [
					{ name: 'X-A', value: '1' },
					{ name: 'X-B', value: '2', match: 'api-host' },
				],
			},
			/header 2 \(X-B\): match "api-host": a word without a dot reads as a host name/,
		],
		[{ headers: [{ name: 'X-B', value: '2', match: '(v2' }] }, /header 1 \(X-B\): match "\(v2": \/\(v2\/: Unterminated group/],
	])('refuses %o', (input, message) => {
		expect(() => normaliseSweepOptions(input)).toThrow(message);
	});
});
