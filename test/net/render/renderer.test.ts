import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/base/errors/index.js';
import { RenderError } from '../../../src/net/render/errors.js';
import { createRenderer, type BrowserPool } from '../../../src/net/render/renderer.js';
import { CHROMIUM } from '../../helpers/browser.js';
import { describeNeeding } from '../../helpers/debian.js';
import { startSpaSite, type SpaSite } from '../../helpers/spa-site.js';

describe('createRenderer without a browser', () => {
	it('starts nothing until a page is rendered, then rejects with NO_BROWSER naming the path and how to give one', async () => {
		const renderer = createRenderer({ browserPath: '/nowhere/chromium', concurrency: 2 });
		expect([renderer.browserPid(), renderer.stats()]).toEqual([undefined, { renders: 0, restarts: 0, popups: 0, memoryKills: 0, peakRendererBytes: 0 }]);
		const error = await renderer.render('http://127.0.0.1:1/', Buffer.from('<p>hi</p>'), 'text/html', { timeoutMs: 1000 }).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(RenderError);
		expect(error).toMatchObject({ code: 'NO_BROWSER' });
		for (const part of ['/nowhere/chromium', '--browser PATH', '$REVISIT_BROWSER', 'apt-get install chromium'])
			expect((error as Error).message).toContain(part);
		await renderer.close();
	});

	it('loads playwright-core only when it launches a browser: no file of src/net/render imports it but as a type, or dynamically', () => {
		const dir = fileURLToPath(new URL('../../../src/net/render/', import.meta.url));
		const imports = readdirSync(dir).flatMap((name) =>
			[...readFileSync(path.join(dir, name), 'utf8').matchAll(/^import (?!type ).*'playwright-core'|import\('playwright-core'\)/gm)].map(
				(match) => `${name}: ${match[0]}`,
			),
		);
		expect(imports).toEqual(["browser.ts: import('playwright-core')"]);
	});

	it('refuses a concurrency below 1 when it is made', () => {
		expect(() => createRenderer({ browserPath: '/usr/bin/chromium', concurrency: 0 })).toThrow(UsageError);
	});
});

describeNeeding(CHROMIUM, 'createRenderer, in Debian chromium', () => {
	let site: SpaSite;
	let renderer: BrowserPool;
	beforeAll(async () => {
		site = await startSpaSite();
		renderer = createRenderer({ browserPath: CHROMIUM.path!, concurrency: 2 });
	});
	afterAll(async () => {
		await renderer?.close();
		await site?.close();
	});

	const fetched = async (path: string) => Buffer.from(await (await fetch(site.url(path))).arrayBuffer());
	const render = async (path: string, options: { timeoutMs?: number; waitFor?: string[] } = {}, signal?: AbortSignal) =>
		renderer.render(
			site.url(path),
			await fetched(path),
			'text/html',
			{ timeoutMs: options.timeoutMs ?? 10_000, waitFor: options.waitFor ?? ['.price'] },
			signal,
		);

	it('renders no more than `concurrency` pages at once; the others wait their turn', async () => {
		site.apiDelayMs = 300;
		try {
			const pages = [11, 12, 13, 14, 15, 16];
			const rendered = await Promise.all(pages.map((n) => render(`/spa/${n}`)));
			console.log(`6 renders at concurrency 2: ${rendered.map((one) => one.ms).join(', ')} ms each (API answers held 300 ms)`);
			expect(rendered.map((one) => /<p class="price">([\d.]+) EUR/.exec(one.html)?.[1])).toEqual(pages.map((n) => `${10 + n}.00`));
			expect(site.api.most).toBeLessThanOrEqual(2);
			expect(renderer.stats()).toMatchObject({ renders: 6, restarts: 0, memoryKills: 0 });
		} finally {
			site.apiDelayMs = 0;
		}
	});

	it('renders a page once more on a new browser when the browser dies under it, and keeps the new one for the next page', async () => {
		const pid = renderer.browserPid();
		expect(pid).toBeTypeOf('number');
		const scripts = site.logOf('/app.js').length;
		const dying = render('/spa-late');
		while (site.logOf('/app.js').length === scripts) await new Promise((resolve) => setTimeout(resolve, 20));
		process.kill(pid!, 'SIGKILL');
		expect((await dying).html).toMatch(/<p class="price">[\d.]+ EUR/);
		expect(site.logOf('/app.js').length).toBe(scripts + 2);
		const next = await render('/spa-api');
		expect(next.html).toContain('11.00 EUR');
		expect(renderer.browserPid()).not.toBe(pid);
		expect(renderer.stats()).toMatchObject({ restarts: 1 });
	});

	it('takes a browser that stops answering for hung: RENDER_TIMEOUT for the page that found it, ' +
		'the page it held beside tried once more on a new browser', async () => {
		await render('/spa-api');
		const pid = renderer.browserPid()!;
		process.kill(pid, 'SIGSTOP');
		const hung = render('/spa-api', { timeoutMs: 1000 }).catch((caught: unknown) => caught);
		const beside = render('/spa-late', { timeoutMs: 30_000 });
		expect(await hung).toMatchObject({ code: 'RENDER_TIMEOUT' });
		expect((await beside).html).toContain('12.00 EUR');
		const next = await render('/spa-api');
		expect(next.html).toContain('11.00 EUR');
		expect(renderer.browserPid()).not.toBe(pid);
		expect(renderer.stats()).toMatchObject({ restarts: 2 });
	}, 90_000);

	it('stops a running render, and one still waiting for a page, when their signal aborts', async () => {
		const controller = new AbortController();
		const scripts = site.logOf('/app.js').length;
		const waiting = [render('/spa-late', {}, controller.signal), render('/spa-late', {}, controller.signal), render('/spa-late', {}, controller.signal)].map(
			(one) => one.catch((caught: unknown) => caught),
		);
		// Two pages running their script (its price 1.5 s away), the third waiting for a page.
		while (site.logOf('/app.js').length < scripts + 2) await new Promise((resolve) => setTimeout(resolve, 20));
		controller.abort(new Error('run interrupted'));
		for (const outcome of await Promise.all(waiting)) expect(outcome).toMatchObject({ message: 'run interrupted' });
		expect((await render('/spa-api')).html).toContain('11.00 EUR');
	});

	it('closes its browser on close(), fails renders still waiting, and starts no other', async () => {
		const pid = renderer.browserPid()!;
		const running = [render('/spa-late'), render('/spa-late'), render('/spa-api')].map((one) => one.catch((caught: unknown) => caught));
		await new Promise((resolve) => setTimeout(resolve, 200));
		await renderer.close();
		const outcomes = await Promise.all(running);
		expect(outcomes[2]).toMatchObject({ code: 'RENDER_FAILED', message: expect.stringContaining('closed') });
		expect(renderer.browserPid()).toBeUndefined();
		expect(() => process.kill(pid, 0)).toThrow();
	});
});
