// Pages of some 12 KB of HTML that change by small edits, for the versions benches: a
// shared nav, head and footer, 8 to 30 paragraphs of article text from a 2,000-word
// vocabulary (as bench/text-store.js's pages), a price and an "Updated" date. Each edit
// is one of: a sentence of a paragraph rewritten, the price moved, the date moved on.
import { mulberry32 } from './prng.js';

/**
 * What the pages of the text and versions benches share, drawn from `random` in one order
 * (so that each bench's pages stay as they were): words from a 2,000-word vocabulary,
 * sentences of them, a nav of 24 links, a footer (with `footerLinks` links), a head with a
 * style and a script whose `<title>` is `TITLE`.
 *
 * @example
 * const { sentence, nav } = pageParts(mulberry32(1)); sentence() // 'Kamiro solvi …'
 */
export function pageParts(random, footerLinks = 12) {
	const syllables = ['ka', 'ro', 'mi', 'ten', 'sol', 'ar', 'vi', 'lu', 'den', 'po', 'ra', 'ne', 'sta', 'qui', 'mo', 'ber'];
	const vocabulary = Array.from({ length: 2000 }, () =>
		Array.from({ length: 1 + Math.floor(random() * 3) }, () => syllables[Math.floor(random() * syllables.length)]).join(''),
	);
	const word = () => vocabulary[Math.floor(random() ** 2 * vocabulary.length)];
	const sentence = () => {
		const s = Array.from({ length: 8 + Math.floor(random() * 14) }, word).join(' ');
		return `${s[0].toUpperCase()}${s.slice(1)}.`;
	};
	const nav =
		`<nav class="site-nav"><ul>` +
		Array.from({ length: 24 }, (_, i) => `<li class="nav-item"><a class="nav-link" href="/section/${i}">${word()} ${word()}</a></li>`).join('') +
		`</ul></nav>`;
	const words = `<p>${sentence()} ${sentence()}</p>`;
	const links = footerLinks > 0 ? `<ul>${Array.from({ length: footerLinks }, (_, i) => `<li><a href="/about/${i}">${word()}</a></li>`).join('')}</ul>` : '';
	const footer = `<footer class="site-footer">${words}${links}</footer>`;
	const head =
		`<head><meta charset="utf-8"><title>TITLE</title><style>${'.c{margin:0;padding:0}'.repeat(60)}</style><script>` +
		`${'window.dataLayer=window.dataLayer||[];'.repeat(40)}</script></head>`;
	return { word, sentence, nav, footer, head };
}

/**
 * `count` pages from `seed`, with `edit(i)` to apply the next small edit to page i and
 * `html(i)` for its current HTML.
 *
 * @example
 * const site = editedPages(1000, 1); site.edit(0); site.html(0) // '<!doctype html>…'
 */
export function editedPages(count, seed) {
	const random = mulberry32(seed);
	const { sentence, nav, footer, head } = pageParts(random);
	const pages = Array.from({ length: count }, (_, i) => ({
		title: `Page ${i}`,
		headline: sentence(),
		paragraphs: Array.from({ length: 8 + Math.floor(random() * 23) }, () => Array.from({ length: 2 + Math.floor(random() * 4) }, sentence)),
		cents: 500 + Math.floor(random() * 50_000),
		day: Math.floor(random() * 300),
	}));
	const date = (day) => new Date(Date.UTC(2026, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
	return {
		count,
		html(i) {
			const page = pages[i];
			const body = page.paragraphs.map((sentences) => `<div class="para-wrap"><p class="para">${sentences.join(' ')}</p></div>`).join('\n');
			const article =
				`<article class="story"><h1 class="headline">${page.headline}</h1><p class="meta">Updated: ` +
				`${date(page.day)}</p><p class="price">Price: $${(page.cents / 100).toFixed(2)}</p>${body}</article>`;
			return `<!doctype html><html>${head.replace('TITLE', page.title)}<body>${nav}<main>${article}</main>${footer}</body></html>`;
		},
		/** The next small edit of page i: a sentence (half the time), the price, or the date. */
		edit(i) {
			const page = pages[i];
			const pick = random();
			if (pick < 0.5) {
				const paragraph = page.paragraphs[Math.floor(random() * page.paragraphs.length)];
				paragraph[Math.floor(random() * paragraph.length)] = sentence();
			} else if (pick < 0.75) page.cents = Math.max(100, page.cents + Math.floor((random() - 0.5) * 2000));
			else page.day += 1 + Math.floor(random() * 5);
		},
	};
}
