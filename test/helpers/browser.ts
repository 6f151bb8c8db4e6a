import { chromium, type Browser, type Page } from 'playwright-core';
import { findProgram, type Needed } from './debian.js';

/** Debian's chromium, which the report's browser tests and bench/report.js drive (no browser is downloaded). */
export const CHROMIUM: Needed = { name: 'chromium', path: findProgram('chromium'), install: 'apt-get install -y --no-install-recommends chromium' };

/** Flags for a quiet headless run as root in a container: nothing fetched in the background, no sandbox (root), no GPU. */
export const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/**
 * Launches Debian's chromium through playwright-core.
 *
 * @example
 * const browser = await launchChromium(); try { ... } finally { await browser.close(); }
 */
export function launchChromium(): Promise<Browser> {
	return chromium.launch({ executablePath: CHROMIUM.path!, args: CHROMIUM_ARGS });
}

/** A page with what it did recorded: console errors and uncaught exceptions, and every request other than `allowed`. */
export interface WatchedPage {
	page: Page;
	errors: string[];
	requests: string[];
}

/**
 * Opens `url` in a new page of `browser` and waits until the report says it is ready
 * (`data-ready` on <html>), recording errors and requests from the start.
 */
export async function openWatched(browser: Browser, url: string, viewport = { width: 1100, height: 900 }): Promise<WatchedPage> {
	const page = await browser.newPage({ viewport });
	const errors: string[] = [];
	const requests: string[] = [];
	page.on('console', (message) => {
		if (message.type() === 'error') errors.push(message.text());
	});
	page.on('pageerror', (error) => errors.push(String(error)));
	page.on('request', (request) => {
		if (request.url() !== url) requests.push(request.url());
	});
	await page.goto(url);
	await page.waitForSelector('html[data-ready]');
	return { page, errors, requests };
}
