/**
 * A small seeded PRNG (mulberry32): the same seed gives the same sequence, so benches,
 * the soak and the demo site are reproducible. Uniform in [0, 1).
 *
 * @example
 * const random = mulberry32(0x5eed1234); random(); // 0.…
 */
export function mulberry32(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
