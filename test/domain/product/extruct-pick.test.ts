import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeNeeding, findProgram } from '../../helpers/debian.js';

// bench/product-corpus.js scores revisit against this picker: if it read wrong, the bench's
// "off-the-shelf" column would be a straw man, or an unfair bar.
const PICK = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../bench/lib/extruct-pick.py');

/** Debian's python3 when it can import extruct (a pyenv or venv python on the PATH may not). */
const EXTRUCT_PYTHON = ['/usr/bin/python3', findProgram('python3')].find((python) => {
	if (!python) return false;
	try {
		execFileSync(python, ['-c', 'import extruct'], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
});

describeNeeding(
	{ name: 'python3-extruct', path: EXTRUCT_PYTHON, install: 'apt-get install -y python3-extruct' },
	'the extruct picker of bench/product-corpus.js',
	() => {
		const dir = mkdtempSync(path.join(tmpdir(), 'extruct-pick-'));
		afterAll(() => rmSync(dir, { recursive: true, force: true }));
		const pick = (html: string) => {
			const file = path.join(dir, `${Math.random().toString(36).slice(2)}.html`);
			writeFileSync(file, html);
			const { file: _file, ...offer } = JSON.parse(execFileSync(EXTRUCT_PYTHON!, [PICK], { input: `${file}\n`, encoding: 'utf8' })) as Record<string, unknown>;
			return offer;
		};

		it("takes the first JSON-LD Product's first offer, as a plain picker does (not the lowest)", () => {
			const ld = {
				'@context': 'https://schema.org',
				'@type': 'Product',
				name: 'Kettle',
				offers: [
					{ '@type': 'Offer', price: '59.90', priceCurrency: 'EUR', availability: 'https://schema.org/InStock' },
					{ '@type': 'Offer', price: '49.90', priceCurrency: 'EUR' },
				],
			};
			expect(pick(`<html><head><script type="application/ld+json">${JSON.stringify(ld)}</script></head><body></body></html>`)).toEqual({
				from: 'json-ld',
				price: 59.9,
				currency: 'EUR',
				availability: 'InStock',
			});
		});

		it('reads microdata after JSON-LD, a price written "1.299,00"', () => {
			const html =
				'<div itemscope itemtype="http://schema.org/Product"><h1 itemprop="name">TV</h1><div itemprop="offers" itemscope ' +
				'itemtype="http://schema.org/Offer"><span itemprop="price">1.299,00</span><meta itemprop="priceCurrency" content="EUR"><link ' +
				'itemprop="availability" href="http://schema.org/OutOfStock"></div></div>';
			expect(pick(`<html><body>${html}</body></html>`)).toEqual({ from: 'microdata', price: 1299, currency: 'EUR', availability: 'OutOfStock' });
		});

		it("falls back to Open Graph's price tags, and gives nothing for a page without any", () => {
			const og =
				'<meta property="og:type" content="product"><meta property="product:price:amount" content="12.50"><meta ' +
				'property="product:price:currency" content="GBP"><meta property="product:availability" content="in stock">';
			expect(pick(`<html><head>${og}</head><body></body></html>`)).toEqual({ from: 'opengraph', price: 12.5, currency: 'GBP', availability: 'InStock' });
			expect(pick('<html><body><p>£12.50</p></body></html>')).toEqual({});
		});
	},
);
