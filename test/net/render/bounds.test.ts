import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRenderer, type BrowserPool } from '../../../src/net/render/renderer.js';
import { RENDER_MEMORY_CAP } from '../../../src/net/render/browser.js';
import { CHROMIUM } from '../../helpers/browser.js';
import { waitFor } from '../../helpers/wait-for.js';
import { describeNeeding } from '../../helpers/debian.js';

/** Pages that cost the browser far more than their bytes; each served by its path on two origins (two ports), so that two render beside each other. */
const PAGES: Record<string, string> = {
	// 845 bytes or so that build tens of megabytes of DOM.
	'/dom-bomb':
		`<!doctype html><p class="price">5 EUR</p><div id="x"></div><script>const one = '<div>' + 'x'.repeat(1000) ` +
		`+ '</div>'; document.getElementById('x').innerHTML = one.repeat(10000);</script>`,
	// Grows without end, as fast as it can.
	'/runaway':
		`<!doctype html><p>growing</p><script>const kept = []; setInterval(() => { for (let i = 0; ` +
		`i < 8; i++) kept.push(new Float64Array(1 << 20).fill(Math.random())); }, 20);</script>`,
	// Ready as soon as asked, then never lets go of its renderer: reading its price starts an endless loop.
	'/spin':
		`<!doctype html><p class="price">8 EUR</p><script>Object.defineProperty(document.querySelector('.price'), ` +
		`'textContent', { get() { setTimeout(() => { for (;;) {} }, 0); return '8 EUR'; } });</script>`,
	// Takes its time: ready after 9 s, long after a page beside it was taken for hung.
	'/slow':
		`<!doctype html><p class="price">6 EUR</p><script>setTimeout(() ` +
		`=> document.body.insertAdjacentHTML('beforeend', '<p class="late">x</p>'), 9000);</script>`,
	'/popups':
		`<!doctype html><p class="price">7 EUR</p><a id="a" href="/plain" target="_blank">a</a><script>try { window.open('/plain'); ` +
		`} catch {} document.getElementById('a').click(); setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<p class="late">x</p>'), ` +
		`800);</script>`,
	'/plain': `<!doctype html><p class="price">9 EUR</p>`,
};

describeNeeding(CHROMIUM, 'a rendered page is bounded, in Debian chromium', () => {
	let servers: http.Server[] = [];
	let origins: string[] = [];
	let renderer: BrowserPool;
	beforeAll(async () => {
		for (let i = 0; i < 2; i++) {
			const server = http.createServer((request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(PAGES[request.url ?? ''] ?? ''));
			await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
			servers.push(server);
			origins.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
		}
		renderer = createRenderer({ browserPath: CHROMIUM.path!, concurrency: 2 });
	});
	afterAll(async () => {
		await renderer?.close();
		for (const server of servers) await new Promise((resolve) => server.close(resolve));
		servers = [];
		origins = [];
	});

	const render = (origin: number, path: string, options: { timeoutMs?: number; maxBytes?: number; waitFor?: string[] } = {}) =>
		renderer.render(`${origins[origin]}${path}`, Buffer.from(PAGES[path]!), 'text/html', {
			timeoutMs: options.timeoutMs ?? 10_000,
			...(options.maxBytes ? { maxBytes: options.maxBytes } : {}),
			...(options.waitFor ? { waitFor: options.waitFor } : {}),
		});

	it('cuts the DOM it hands over at --max-body, however large the page made it', async () => {
		const rendered = await render(0, '/dom-bomb', { maxBytes: 1024 * 1024, waitFor: ['.price'], timeoutMs: 20_000 });
		expect(PAGES['/dom-bomb']!.length).toBeLessThan(1000);
		expect(rendered.html.length).toBe(1024 * 1024);
		expect(rendered.html).toContain('<p class="price">5 EUR</p>');
	}, 60_000);

	it('stops a renderer past the memory cap (RENDER_TOO_LARGE) while a page on another origin renders beside it, on the same browser', async () => {
		await render(1, '/plain', { waitFor: ['.price'] });
		const pid = renderer.browserPid();
		const [runaway, beside] = await Promise.allSettled([
			render(0, '/runaway', { timeoutMs: 60_000, waitFor: ['.never'] }),
			render(1, '/plain', { waitFor: ['.price'] }),
		]);
		expect(runaway).toMatchObject({ status: 'rejected', reason: { code: 'RENDER_TOO_LARGE' } });
		expect(beside).toMatchObject({ status: 'fulfilled', value: { html: expect.stringContaining('9 EUR') } });
		const stats = renderer.stats();
		expect(stats).toMatchObject({ restarts: 0, memoryKills: 1 });
		// Held near its cap: read every 100 ms, a renderer grows a few hundred megabytes at most past it before it is stopped.
		console.log(`largest renderer seen: ${(stats.peakRendererBytes / 1024 ** 2).toFixed(0)} MiB (cap ${RENDER_MEMORY_CAP / 1024 ** 2} MiB)`);
		expect(stats.peakRendererBytes).toBeLessThan(RENDER_MEMORY_CAP * 2);
		expect(renderer.browserPid()).toBe(pid);
	}, 90_000);

	it('ends a page that never lets go by closing its own context: the page beside it and the browser live on', async () => {
		await render(1, '/plain', { waitFor: ['.price'] });
		const pid = renderer.browserPid();
		const [spin, beside] = await Promise.allSettled([
			render(0, '/spin', { timeoutMs: 2000, waitFor: ['.price'] }),
			render(1, '/slow', { timeoutMs: 20_000, waitFor: ['.late'] }),
		]);
		expect(spin).toMatchObject({ status: 'rejected', reason: { code: 'RENDER_TIMEOUT' } });
		expect(beside).toMatchObject({ status: 'fulfilled', value: { html: expect.stringContaining('6 EUR') } });
		expect(renderer.stats()).toMatchObject({ restarts: 0 });
		expect(renderer.browserPid()).toBe(pid);
		expect((await render(0, '/plain', { waitFor: ['.price'] })).html).toContain('9 EUR');
	}, 60_000);

	it('closes popups as they open: none is left once the render is done', async () => {
		const before = renderer.stats().popups;
		const rendered = await render(0, '/popups', { waitFor: ['.late'] });
		expect(rendered.html).toContain('7 EUR');
		expect(renderer.stats().popups - before).toBeGreaterThanOrEqual(1);
		// window.open is gone from the page: only the target=_blank click opened one, and it is closed
		// (its close is asked for as it opens, and may end after the render on a loaded machine: at load 13 it did).
		await waitFor(() => renderer.openPages() === 0, 'the popup closed');
	}, 60_000);
});
