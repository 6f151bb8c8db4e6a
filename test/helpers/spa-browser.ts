import { afterAll, beforeAll } from 'vitest';
import { BROWSER_ARGS, launchBrowser, type LiveBrowser } from '../../src/net/render/browser.js';
import { CHROMIUM } from './browser.js';
import { startSpaSite, type SpaSite } from './spa-site.js';

/** What a render test works with: the fixture site, a launched browser, and a page's body as revisit fetches it. */
export interface SpaBrowser {
	site: SpaSite;
	live: LiveBrowser;
	/** The page's body as revisit's own request would have it (one GET the site logs). */
	fetched(path: string): Promise<Buffer>;
}

/**
 * Starts issue 29's fixture site and Debian's chromium before the suite's tests and stops
 * both after: call it in a `describe` (or `describeNeeding(CHROMIUM, …)`) body.
 *
 * @example
 * const spa = spaBrowser(); it('…', async () => renderPage(spa.live, spa.site.url('/spa-api'), await spa.fetched('/spa-api'), …));
 */
export function spaBrowser(): SpaBrowser {
	const handle = {} as SpaBrowser;
	handle.fetched = async (path) => Buffer.from(await (await fetch(handle.site.url(path))).arrayBuffer());
	beforeAll(async () => {
		handle.site = await startSpaSite();
		handle.live = await launchBrowser(CHROMIUM.path!, BROWSER_ARGS, () => {});
	});
	afterAll(async () => {
		await handle.live?.close();
		await handle.site?.close();
	});
	return handle;
}
