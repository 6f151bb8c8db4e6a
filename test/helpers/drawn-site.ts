import { startServer, type TestServer } from './server.js';

/** Issue 47's pages drawn by script, with what the test can set. */
export interface DrawnSite extends TestServer {
	/** The price `/drawn`'s API and `/drawn-inline`'s inline script give (EUR). */
	price: number;
	/** The sentence `/story`'s inline script writes. */
	story: string;
}

/** The product as a shop's template writes it, no structured data: a title, a price, a buy button. */
const product = (price: string) => `<h1>Stovetop kettle</h1><p class="cost">${price}</p><button type="submit">Add to cart</button>`;

/** /drawn's script: asks the API for the price, then writes the product into `#shop`. */
const DRAWN_JS = `(async () => {
	const { price } = await (await fetch('/api/drawn')).json();
	document.getElementById('shop').innerHTML = ${JSON.stringify(product('€PRICE'))}.replace('PRICE', price.toFixed(2));
})();
`;

/** An article with a Google Analytics and a gtag snippet: scripts that write nothing a reader sees. */
const ANALYTICS_PAGE =
	'<!doctype html><html><head><title>Opening hours</title>' +
	("<script>(function(i,s,o,g,r,a,m){i['GoogleAnalyticsObject']=r;i[r]=i[r]||function(){(i[r].q=i[r].q||[]).push(arguments)},i[r].l=1*new Date();" +
		"a=s.createElement(o),m=s.getElementsByTagName(o)[0];a.async=1;a.src=g;m.parentNode.insertBefore(a,m)})(window,document,'script'," +
		"'/analytics.js','ga');ga('create','UA-000000-1','auto');ga('send','pageview');</script>") +
	('<script>window.dataLayer = window.dataLayer || []; ' +
		"function gtag(){dataLayer.push(arguments);} gtag('js', new Date()); gtag('config', 'G-000000');</script>") +
	'</head><body><h1>Opening hours</h1><p>The library opens at nine every weekday and at ten on Saturdays. It is closed on Sundays and on public holidays.</p>' +
	'<p>Books can be returned at any hour through the slot beside the main door; they are checked in the next morning.</p></body></html>';

/**
 * A site on 127.0.0.1 whose pages are written by script: `/drawn`, a product page with no
 * structured data whose external /drawn.js writes the title, the price (from `/api/drawn`)
 * and a buy button; `/drawn-inline`, the same written by an inline script with the price
 * in it; `/story`, a page whose only text an inline script writes (`site.story`);
 * `/analytics`, a static article with analytics snippets (nothing to render); `/late-text`,
 * a blank page a timer writes text into 2.5 s after load; `/loading`, "Loading…" until a
 * timer writes the product 2.5 s after load. No request goes out between load and a timer.
 *
 * @example
 * const site = await startDrawnSite();
 * site.price = 19.5;
 */
export async function startDrawnSite(): Promise<DrawnSite> {
	const state = { price: 24.5, story: 'The council voted to open the library on Sundays.' };
	const html = (res: import('node:http').ServerResponse, text: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(text);
	const server = await startServer((req, res) => {
		const path = req.url ?? '/';
		if (path === '/drawn')
			return html(
				res,
				'<!doctype html><html><head><title>Stovetop kettle</title></head><body><main id="shop"></main><script src="/drawn.js"></script></body></html>',
			);
		if (path === '/drawn.js') return void res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(DRAWN_JS);
		if (path === '/api/drawn') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ price: state.price }));
		if (path === '/drawn-inline') {
			const script = `document.getElementById('shop').innerHTML = ${JSON.stringify(product(`€${state.price.toFixed(2)}`))};`;
			return html(res, `<!doctype html><html><head><title>Stovetop kettle</title></head><body><main id="shop"></main><script>${script}</script></body></html>`);
		}
		if (path === '/story') {
			const script = `document.getElementById('story').innerHTML = ${JSON.stringify(`<h1>Council news</h1><p>${state.story}</p>`)};`;
			return html(res, `<!doctype html><html><head><title>News</title></head><body><article id="story"></article><script>${script}</script></body></html>`);
		}
		if (path === '/analytics') return html(res, ANALYTICS_PAGE);
		// Text a timer writes, with no request before it: the network is idle long before.
		if (path === '/late-text')
			return html(
				res,
				'<!doctype html><html><head><title>Late</title></head><body><script>setTimeout(() ' +
					'=> { document.body.append("Written by a timer"); }, 2500);</script></body></html>',
			);
		// A placeholder first, the product a timer later (no request in between).
		if (path === '/loading') {
			const script = `setTimeout(() => { document.getElementById('shop').innerHTML = ${JSON.stringify(product(`€${state.price.toFixed(2)}`))}; }, 2500);`;
			return html(
				res,
				`<!doctype html><html><head><title>Stovetop kettle</title></head><body><main id="shop"><p>Loading…</p></main><script>${script}</script></body></html>`,
			);
		}
		if (path === '/analytics.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end('window.ga = window.ga || function () {};');
		res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
	});
	const site = server as DrawnSite;
	Object.defineProperty(site, 'price', { get: () => state.price, set: (price: number) => void (state.price = price) });
	Object.defineProperty(site, 'story', { get: () => state.story, set: (story: string) => void (state.story = story) });
	return site;
}
