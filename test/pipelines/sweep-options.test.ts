import { describe, expect, it } from 'vitest';
import { normaliseSweepOptions, sweepDefaults } from '../../src/pipelines/sweep-options.js';

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
	])('refuses %o', (input, message) => {
		expect(() => normaliseSweepOptions(input)).toThrow(message);
	});
});
