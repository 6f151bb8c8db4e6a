import { mulberry32 } from './prng.js';

/**
 * Lowers a seeded share of the prices in place, each by 1% to 20% (at least one unit), and
 * returns the indices moved, in order: what the shop benches (product-origin.js,
 * spa-origin.js) do on a `change` message.
 *
 * @example
 * dropPrices(prices, 7, 0.05) // [3, 41, …]: 5% of the pages, seeded by 7
 */
export function dropPrices(prices, seed, fraction) {
	const pick = mulberry32(seed);
	const order = Array.from({ length: prices.length }, (_, n) => n);
	for (let i = order.length - 1; i > 0; i--) {
		const j = Math.floor(pick() * (i + 1));
		[order[i], order[j]] = [order[j], order[i]];
	}
	const chosen = order.slice(0, Math.round(prices.length * fraction)).sort((a, b) => a - b);
	for (const n of chosen) prices[n] = Math.max(1, prices[n] - Math.max(1, Math.round(prices[n] * (0.01 + 0.19 * pick()))));
	return chosen;
}
