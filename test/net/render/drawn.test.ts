import { describe, expect, it } from 'vitest';
import { drawnByScript } from '../../../src/net/render/drawn.js';

const ARTICLE =
	'<h1>Opening hours</h1><p>The library opens at nine every weekday and at ten on Saturdays. It is closed on Sundays and on public holidays.</p>' +
	'<p>Books can be returned at any hour through the slot beside the main door; they are checked in the next morning.</p>';
const page = (head: string, body: string) => `<!doctype html><html><head><title>Page</title>${head}</head><body>${body}</body></html>`;

const GA =
	"<script>(function(i,s,o,g,r,a,m){i['GoogleAnalyticsObject']=r;i[r]=i[r]||function(){(i[r].q=i[r].q||[]).push(arguments)},i[r].l=1*new Date();" +
	"a=s.createElement(o),m=s.getElementsByTagName(o)[0];a.async=1;a.src=g;m.parentNode.insertBefore(a,m)})(window,document,'script'," +
	"'https://www.google-analytics.com/analytics.js','ga');ga('create','UA-000000-1','auto');ga('send','pageview');</script>";
const GTM =
	"<script>(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0]," +
	"j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src='https://www.googletagmanager.com/gtm.js?id='+i+dl;" +
	"f.parentNode.insertBefore(j,f);})(window,document,'script','dataLayer','GTM-XXXX');</script>";
const PIXEL =
	'<script>!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)};' +
	"if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';n.queue=[];t=b.createElement(e);t.async=!0;t.src=v;s=b.getElementsByTagName(e)[0];" +
	"s.parentNode.insertBefore(t,s)}(window,document,'script','https://connect.facebook.net/en_US/fbevents.js');fbq('init','000');fbq('track'," +
	"'PageView');</script>";

describe('drawnByScript: whether --render auto renders a page no rule asks to', () => {
	it('a page whose text an inline script writes, with no <script src>', () => {
		expect(
			drawnByScript(
				page(
					'',
					`<article id="story"></article><script>document.getElementById('story').innerHTML = ` +
						`'<h1>Council news</h1><p>The council voted to open the library on Sundays.</p>';</script>`,
				),
			),
		).toBe(true);
		expect(drawnByScript(page('', `<script>document.write('<p>Open every day from nine to five</p>')</script>`))).toBe(true);
		expect(
			drawnByScript(
				page('', `<main></main><script>const p = document.createElement('p'); p.textContent = data.text; document.querySelector('main').append(p);</script>`),
			),
		).toBe(true);
	});

	it("a framework's empty root with its bundle inline", () => {
		expect(drawnByScript(page('', '<div id="root"></div><script type="module">const app = mount(); app.start();</script>'))).toBe(true);
		expect(drawnByScript(page('', '<div id="__next"></div><script>self.__next_f = []; boot()</script>'))).toBe(true);
	});

	it('an empty shell with a <script src>, as before', () => {
		expect(drawnByScript(page('', '<div id="app"></div><script src="/app.js"></script>'))).toBe(true);
	});

	it('a page with plenty of text whose inline script writes more words than it shows', () => {
		const story = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} of the story the script writes, word after word.`).join(' ');
		expect(
			drawnByScript(
				page('', `${ARTICLE}<div id="more"></div><script>document.getElementById('more').innerHTML = ${JSON.stringify(`<p>${story}</p>`)};</script>`),
			),
		).toBe(true);
	});

	it(
		'not a static article with analytics snippets (Google Analytics, Tag Manager, ' +
			'Meta pixel, gtag), nor one that writes its footer year or a cookie notice',
		() => {
			const gtag =
				'<script>window.dataLayer = window.dataLayer || []; ' +
				"function gtag(){dataLayer.push(arguments);} gtag('js', new Date()); gtag('config', 'G-000000');</script>";
			expect(drawnByScript(page(GA + GTM + PIXEL + gtag, ARTICLE))).toBe(false);
			expect(
				drawnByScript(
					page(
						'',
						`${ARTICLE}<footer>© <span id="year"></span></footer><script>document.getElementById('year').textContent = new Date().getFullYear();</script>`,
					),
				),
			).toBe(false);
			expect(
				drawnByScript(
					page(
						'',
						`${ARTICLE}<div id="cookies"></div><script>document.getElementById('cookies').innerHTML = '<p>We use cookies. <button>OK</button></p>';</script>`,
					),
				),
			).toBe(false);
		},
	);

	it('not a short page whose scripts write nothing: analytics, JSON-LD, data', () => {
		expect(drawnByScript(page(GA + PIXEL, '<h1>Kettle</h1><p>24.50 EUR</p>'))).toBe(false);
		expect(
			drawnByScript(
				page(
					'<script type="application/ld+json">{"@type":"Product","name":"Kettle and more words"}</script>',
					'<h1>Kettle</h1><script type="application/json" id="data">{"text":"document.write(\'a b c\')"}</script>',
				),
			),
		).toBe(false);
		expect(drawnByScript(page('', '<h1>Kettle</h1><p>No script at all</p>'))).toBe(false);
	});
});
