import { describe, expect, it } from 'vitest';
import { compileNoise, learnNoise, maskNoise } from '../../../src/domain/content/noise.js';

const page = (nonce: string, stamp: string, price: string) =>
	`<script>var nonce="${nonce}"</script><input name="csrf" value="${nonce.slice(2)}x9k"><p>Generated at ${stamp}</p><p class="price">$${price}</p>`;

describe('learned noise', () => {
	it('learns what differs between two fetches, generalised by shape, and masks later values too', () => {
		const first = page('0.4821937', '2026-12-04T09:14:02.120Z', '12');
		const second = page('0.9371020', '2026-12-04T09:14:03.007Z', '12');
		const patterns = compileNoise(learnNoise(first, second));
		expect(patterns.length).toBeGreaterThan(0);
		const later = page('0.1111111', '2027-01-01T00:00:00.000Z', '12');
		expect(maskNoise(later, patterns)).toBe(maskNoise(first, patterns));
		// A real edit outside the learned parts still shows.
		expect(maskNoise(page('0.2', '2027-01-01T00:00:00.000Z', '13'), patterns)).not.toBe(maskNoise(first, patterns));
	});

	it('learns nothing from identical texts, and gives up on a page that differs everywhere', () => {
		expect(learnNoise('same', 'same')).toEqual([]);
		const words = (seed: number) => Array.from({ length: 200 }, (_, i) => `w${(i * seed) % 997}x`).join(' ');
		expect(learnNoise(words(7), words(13))).toEqual([]);
	});

	it('anchors a pattern on the tokens before it, so that the same shape elsewhere is kept', () => {
		const patterns = compileNoise(learnNoise('<p>at 09:14:02</p><p>opens 10:00</p>', '<p>at 09:14:03</p><p>opens 10:00</p>'));
		expect(maskNoise('<p>at 23:59:59</p><p>opens 11:30</p>', patterns)).toBe('<p></p><p>opens 11:30</p>');
	});
});
