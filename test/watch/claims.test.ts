import { describe, expect, it } from 'vitest';
import { claimLimits, createClaims } from '../../src/watch/claims.js';

const HOUR = 3_600_000;
const entry = (url: string, due: number, token?: string) => ({ url, origin: new URL(url).origin, due, rate: 0.1, token });

function claimsOf(hostGapMs?: number) {
	const dispatched: number[] = [];
	const late: number[] = [];
	let said = 0;
	const threshold = { mu: 0.5, dispatched: (_count: number, earlyMs = 0) => void dispatched.push(earlyMs) };
	const claims = createClaims({ threshold, say: { claimed: () => void said++ }, observer: { late: (seconds) => void late.push(seconds) }, hostGapMs });
	return { claims, dispatched, late, said: () => said };
}

describe('createClaims', () => {
	it("hands each claimed URL's token back once, when its check is over", () => {
		const { claims } = claimsOf();
		claims.claimed(entry('https://a.test/1', 1000, 't1'), 1000);
		claims.claimed(entry('https://a.test/2', 1000), 1000);
		expect(claims.ended('https://a.test/1')).toEqual({ url: 'https://a.test/1', token: 't1' });
		expect(claims.ended('https://a.test/1')).toBeUndefined();
		expect(claims.ended('https://a.test/2')).toBeUndefined();
		expect(claims.ended(undefined)).toBeUndefined();
	});

	it('tells the threshold how early each claim went, the watch that one was claimed, the observer how late (seconds)', () => {
		const { claims, dispatched, late, said } = claimsOf();
		claims.claimed(entry('https://a.test/1', 5000), 2000);
		claims.claimed(entry('https://a.test/2', 1000), 4000);
		expect(dispatched).toEqual([3000, -3000]);
		expect(late).toEqual([0, 3]);
		expect(said()).toBe(2);
	});

	it('raises the threshold of an origin whose claims run late only where its politeness binds: spaced by a gap, or every origin under --host-rate', () => {
		const { claims } = claimsOf();
		claims.spaced.add('https://slow.test');
		for (let i = 0; i < 3; i++) {
			claims.claimed(entry(`https://slow.test/${i}`, 0), 2 * HOUR);
			claims.claimed(entry(`https://busy.test/${i}`, 0), 2 * HOUR);
		}
		expect(claims.mu('https://slow.test')).toBeCloseTo(0.5 * 1.1 ** 3, 9);
		expect(claims.mu('https://busy.test')).toBe(0.5);
		expect(claims.mu(undefined)).toBe(0.5);
		const gapped = claimsOf(250).claims;
		gapped.claimed(entry('https://busy.test/1', 0), 2 * HOUR);
		expect(gapped.mu('https://busy.test')).toBeCloseTo(0.55, 9);
	});
});

describe('claimLimits', () => {
	const options = { concurrency: 6, perHost: 3, highWater: 64 };

	it('holds twice --per-host claims per origin on a schedule one process holds, with the run as it is', () => {
		const limits = claimLimits({ shared: false }, options);
		expect(limits).toEqual({ options, perHost: 6 });
	});

	it('on a shared schedule, holds --per-host per origin and as many lines as requests in flight, twice that where places come back early', () => {
		expect(claimLimits({ shared: true }, options)).toEqual({ options: { ...options, highWater: 6 }, perHost: 3 });
		expect(claimLimits({ shared: true, answered: () => Promise.resolve() }, options)).toEqual({ options: { ...options, highWater: 12 }, perHost: 3 });
	});
});
