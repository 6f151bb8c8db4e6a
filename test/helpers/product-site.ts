import { startServer, type TestServer } from './server.js';

/** Five two- to four-word ads of different markup, one picked at random on every answer. */
const ADS = ['Cheap flights to Rome', '<b>Gym</b> offer today', 'New <i>shoes</i> sale', 'Learn Spanish fast', '<a href="/go">Car insurance</a> deals'];

const token = () => Math.random().toString(36).slice(2, 12);

/**
 * A shop of `pages` product pages (`/product/N`) as real ones are: on every answer a fresh
 * script nonce, CSRF token, random attribute values and id, a timestamp, and an ad box
 * that rotates among five multi-word ads (so two answers agree on it one time in five).
 * The real content is the price and, on every third page, a stock line; the test edits
 * them with `price` and `stock`. No validators are sent. `ticker` pages have a price that
 * changes on every answer (a live ticker).
 *
 * @example
 * const shop = await startProductSite(100);
 * shop.price.set(7, 12);
 */
export async function startProductSite(pages: number): Promise<TestServer & { urls: string[]; price: Map<number, number>; stock: Map<number, number> }> {
	const price = new Map<number, number>();
	const stock = new Map<number, number>();
	let served = 0;
	const server = await startServer((req, res) => {
		served++;
		const path = req.url ?? '/';
		const ticker = path.startsWith('/ticker');
		const n = Number(/\d+/.exec(path)?.[0] ?? 0);
		const shown = ticker ? 100 + served : (price.get(n) ?? 10 + (n % 7));
		const stockLine = n % 3 === 0 ? `<p class="stock">In stock: ${stock.get(n) ?? 5} left</p>` : '';
		const when = new Date(Date.UTC(2026, 11, 4) + served * 61_000).toISOString();
		res
			.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
			.end(
				`<!doctype html><html><head><title>Product ${n}</title><script nonce="${token()}">window.csrf = "${token()}";</script></head>` +
					`<body data-render="${token()}"><header><nav><a href="/">Home</a> <a href="/shop">Shop</a></nav></header>` +
					`<main class="product"><h1>Product ${n}: a sturdy thing for every day</h1>` +
					`<p class="price">$${shown}</p>${stockLine}` +
					`<form method="post"><input type="hidden" name="csrf" value="${token()}"><button>Buy now</button></form>` +
					`<aside class="ad" id="ad-${token()}">${ADS[Math.floor(Math.random() * ADS.length)]}</aside>` +
					`<p class="generated">Generated at ${when}</p></main>` +
					`<footer>Made by a shop that has been around since 1999, in a town by the sea.</footer></body></html>`,
			);
	});
	const urls = Array.from({ length: pages }, (_, i) => server.url(`/product/${i + 1}`));
	return Object.assign(server, { urls, price, stock });
}
