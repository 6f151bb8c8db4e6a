// The cost of learned noise per 200 body: `npm run build && node bench/noise.js`.
//
// A 50 KB HTML product page (as bench/rules.js: scripts, a form, 560 list items, a price),
// one core, 300 bodies per row: hashing alone (no noise learned), learning the places
// from two fetches (what the second fetch of a changed page costs in CPU), and masking
// 6 learned places before hashing (what every 200 of a page with learned noise costs).
import path from 'node:path';
import { ROOT as root } from './lib/sweep-bench.js';

const { hashText } = await import(path.join(root, 'dist/domain/content/content-hash.js'));
const { learnPlaces, maskedHash } = await import(path.join(root, 'dist/domain/content/noise.js'));

const items = Array.from(
	{ length: 560 },
	(_, i) => `<li class="item"><a href="/p/${i}">Related product ${i}</a> <span>${(i * 7) % 100} reviews</span></li>`,
).join('\n');
const page = (n) =>
	`<!doctype html><html><head><title>Product</title><script nonce="${n}x">window.nonce="${String(n).repeat(8)}";${'var a=1;'.repeat(200)}</script>` +
	`<style>${'.c{color:red}'.repeat(200)}</style></head>` +
	(`<body data-r="${n}"><form><input type="hidden" name="csrf" value="abc${n}"></form><p class="stamp">Generated at 2026-12-04T02:00:0${n % 10}Z</p><ul>` +
		`${items}</ul>`) +
	(`<aside class="ad">${['Gym offer', '<b>Cheap</b> flights'][n % 2]}</aside><div class="product"><h1>Thing</h1><p class="price">Price: ` +
		`$12.50</p></div></body></html>`);
const ROUNDS = 300;
const places = learnPlaces(page(1), page(2));
const time = (work) => {
	const start = performance.now();
	for (let i = 0; i < ROUNDS; i++) work(i);
	return Math.round(ROUNDS / ((performance.now() - start) / 1000));
};
console.log(`Learned noise, one core, a ${(page(1).length / 1024).toFixed(0)} KB page, ${ROUNDS} bodies each; ${places.length} places learned\n`);
console.log('| step | bodies/s |');
console.log('|---|---:|');
console.log(`| hash only (no noise) | ${time((i) => hashText(page(i)))} |`);
console.log(`| learn the places from two fetches | ${time((i) => learnPlaces(page(i), page(i + 1)))} |`);
console.log(`| mask ${places.length} places, then hash | ${time((i) => maskedHash(page(i), places))} |`);
