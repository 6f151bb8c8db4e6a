import { describe, expect, it } from 'vitest';
import { createHostThresholds } from '../../src/watch/host-threshold.js';

describe('createHostThresholds', () => {
	it('raises an origin whose claims run over an hour late, and lowers it back to μ once they are on time', () => {
		const hosts = createHostThresholds();
		for (let i = 0; i < 10; i++) hosts.claimed('https://slow.test', 2 * 3_600_000);
		expect(hosts.factor('https://slow.test')).toBeCloseTo(1.1 ** 10, 6);
		expect(hosts.factor('https://other.test')).toBe(1);
		for (let i = 0; i < 12; i++) hosts.claimed('https://slow.test', 0);
		expect(hosts.factor('https://slow.test')).toBe(1);
	});
});
