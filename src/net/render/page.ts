import type { Page, Response } from 'playwright-core';
import { hashBody } from '../../domain/content/hash.js';
import { errorFirstLine, withinOr, type LiveBrowser } from './browser.js';
import { RenderError } from './errors.js';
import { SCRIPTED, handedAnswers } from './handed.js';
import { watchReadiness } from './ready.js';
import { sendOn } from './routes.js';
import type { DataRequest, Rendered, RenderOptions } from './types.js';

const DATA_TYPE = /json|html/i;
/** How long a render waits for its page to close before it answers anyway. */
const CLOSE_WAIT_MS = 5000;

/**
 * Renders `body` as the document at `url` in a new page of `live` (in the context of
 * url's origin), and closes the page. See Renderer.render for what is let through.
 * Rejects with a RenderError, or with `signal`'s reason once it aborts.
 *
 * @example
 * const { html, data } = await renderPage(live, 'https://shop.example/p/1', body, 'text/html', { timeoutMs: 15_000 });
 */
export async function renderPage(
	live: LiveBrowser,
	url: string,
	body: Buffer,
	contentType: string | undefined,
	options: RenderOptions,
	signal?: AbortSignal,
): Promise<Rendered> {
	const started = performance.now();
	const deadline = started + options.timeoutMs;
	const remaining = () => Math.max(1, deadline - performance.now());
	let release = () => {};
	let page: Page | undefined;
	let crashed = false;
	const onAbort = () => void page?.close({ runBeforeUnload: false }).catch(() => undefined);
	signal?.addEventListener('abort', onAbort, { once: true });
	// The run's policy for every request its pages cause, the ones no route sees included.
	live.guard.policy = { denyPrivate: options.denyPrivate ?? false, allow: options.allow };
	const watched = live.memory.hold();
	try {
		signal?.throwIfAborted();
		const held = await live.context(new URL(url).origin);
		release = held.release;
		const cookies = options.cookies?.() ?? [];
		if (cookies.length > 0) await held.context.addCookies(cookies);
		page = await held.context.newPage();
		// An abort while the page was being made found no page to close.
		signal?.throwIfAborted();
		const opened = page;
		opened.on('crash', () => {
			crashed = true;
		});
		let served = false;
		const handed = handedAnswers(options.handed, url);
		await opened.route('**/*', async (route, request) => {
			try {
				// The document is the body the caller already has: fetching it again would cost a request, and could differ.
				if (!served && request.isNavigationRequest() && request.frame() === opened.mainFrame()) {
					served = true;
					return await route.fulfill({ status: 200, contentType: contentType ?? 'text/html', body });
				}
				// So is a data request got has just revalidated: handed over, under the same rules as one that goes out.
				const answer = handed(request);
				if (answer && (!options.allow || (await options.allow(request.url())))) return await route.fulfill(answer);
				await sendOn(route, request, url, options);
			} catch {
				// The page closed meanwhile, allow() failed, or the request from here did: it goes nowhere.
				await route.abort('failed').catch(() => undefined);
			}
		});
		const answered: Array<Promise<DataRequest | undefined>> = [];
		opened.on('response', (response) => {
			const request = response.request();
			if (request.method() === 'GET' && SCRIPTED.has(request.resourceType())) answered.push(dataRequest(response));
		});
		const ready = await watchReadiness(opened, options, () => serialised(opened, options.maxBytes));
		await opened.goto(url, { waitUntil: 'domcontentloaded', timeout: remaining() });
		const html = await ready(remaining, url, options.timeoutMs);
		const data = await settled(answered, remaining());
		return { html, data: [{ url, hash: hashBody(body) }, ...data], ms: Math.round(performance.now() - started) };
	} catch (error) {
		signal?.throwIfAborted();
		if (crashed && live.memory.killedSince(started))
			throw new RenderError('RENDER_TOO_LARGE', `${url}: the page's renderer grew past the memory cap (--render-memory) and was stopped`, { cause: error });
		if (crashed) throw new RenderError('BROWSER_CRASHED', `${url}: the page's renderer process crashed`, { cause: error });
		if (live.lost || !live.browser.isConnected())
			throw new RenderError('BROWSER_CRASHED', `${url}: the browser went away while rendering; it is started again for the next page`, { cause: error });
		if (error instanceof Error && error.name === 'TimeoutError') {
			// The document itself did not load in time (the wait for readiness throws its own).
			const waited = options.waitFor?.length ? `none of ${options.waitFor.join(', ')} appeared` : 'the document did not load';
			throw new RenderError('RENDER_TIMEOUT', `${url}: not ready within ${options.timeoutMs} ms (${waited})`, { cause: error });
		}
		if (error instanceof RenderError) throw error;
		throw new RenderError('RENDER_FAILED', `${url}: ${errorFirstLine(error)}`, { cause: error });
	} finally {
		watched();
		signal?.removeEventListener('abort', onAbort);
		release();
		// A page that will not close is the renderer's to deal with (its context is closed): the caller is not held.
		if (page)
			await withinOr(
				page.close({ runBeforeUnload: false }).catch(() => undefined),
				CLOSE_WAIT_MS,
				undefined,
			);
	}
}

/**
 * The page's DOM as markup (the doctype, then the root element), cut at `maxBytes`
 * characters in the page itself, so that a page that built a huge DOM from a few bytes
 * does not hand all of it to this process.
 */
async function serialised(page: Page, maxBytes: number | undefined): Promise<string> {
	const limit = maxBytes !== undefined && Number.isFinite(maxBytes) ? Math.max(0, Math.floor(maxBytes)) : -1;
	return page.evaluate((max) => {
		// Runs in the page, where the DOM is; src/ is compiled without its types.
		const document = (globalThis as unknown as { document: { doctype: { name: string } | null; documentElement: { outerHTML: string } | null } }).document;
		const doctype = document.doctype ? `<!DOCTYPE ${document.doctype.name}>` : '';
		const markup = doctype + (document.documentElement?.outerHTML ?? '');
		return max >= 0 && markup.length > max ? markup.slice(0, max) : markup;
	}, limit);
}

/** A data request from a response: a 2xx with a JSON or HTML body, else undefined. */
async function dataRequest(response: Response): Promise<DataRequest | undefined> {
	try {
		if (response.status() < 200 || response.status() > 299) return undefined;
		const headers = await response.allHeaders();
		if (!DATA_TYPE.test(headers['content-type'] ?? '')) return undefined;
		const hash = hashBody(await response.body());
		const etag = headers['etag'];
		const lastModified = headers['last-modified'];
		// Under the URL the page asked for: got, revalidating it, follows the same redirects.
		let first = response.request();
		for (let earlier = first.redirectedFrom(); earlier; earlier = earlier.redirectedFrom()) first = earlier;
		return { url: first.url(), ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}), hash };
	} catch {
		// Its body never came (the page closed, the request was cut): nothing to revalidate it against.
		return undefined;
	}
}

/** The data requests whose bodies arrived within `ms`, in the order they were answered. */
async function settled(answered: Array<Promise<DataRequest | undefined>>, ms: number): Promise<DataRequest[]> {
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<undefined>((resolve) => {
		timer = setTimeout(resolve, ms, undefined);
	});
	try {
		const data = await Promise.all(answered.map((one) => Promise.race([one, late])));
		return data.filter((one): one is DataRequest => one !== undefined);
	} finally {
		clearTimeout(timer);
	}
}
