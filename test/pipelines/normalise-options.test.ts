import { describe, expect, it } from 'vitest';
import { normaliseSweepOptions } from '../../src/pipelines/normalise-options.js';
import { sweepDefaults } from '../../src/pipelines/sweep-defaults.js';

describe('normaliseSweepOptions', () => {
	it('fills the defaults', () => {
		expect(normaliseSweepOptions()).toEqual(sweepDefaults);
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
		[{ headers: [{ name: 'X-A', value: '1' }, { name: 'X-B', value: '2', match: 'api-host' }] }, /header 2 \(X-B\): match "api-host": a word without a dot reads as a host name/],
		[{ headers: [{ name: 'X-B', value: '2', match: '(v2' }] }, /header 1 \(X-B\): match "\(v2": \/\(v2\/: Unterminated group/],
	])('refuses %o', (input, message) => {
		expect(() => normaliseSweepOptions(input)).toThrow(message);
	});
});
