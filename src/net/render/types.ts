import type { DataRequest } from '../../store/model/types.js';
import type { BrowserCookieData } from '../http/cookies.js';

export type { DataRequest };

/** A page as the browser left it. */
export interface Rendered {
	/** The DOM serialised once the page was ready (`page.content()`). */
	html: string;
	/** Its data requests, in the order they were answered (GETs only; the document first). */
	data: DataRequest[];
	/** Wall-clock milliseconds the render took. */
	ms: number;
}

/** How one page is rendered. */
export interface RenderOptions {
	/** Give up after this long (`--render-timeout`): a RENDER_TIMEOUT error. */
	timeoutMs: number;
	/** The page is ready once one of these CSS selectors has content (the rule's, or an offer's markup). */
	waitFor?: readonly string[] | undefined;
	/**
	 * Or once the network is idle, with text in the page, and this finds what is read in the
	 * page's markup then (a product rule: an offer, read by the same reader as a static page).
	 * Without it, idle with text is ready only when `waitFor` is empty. See net/render/ready.ts.
	 */
	reads?: ((html: string) => boolean) | undefined;
	/** Request headers for the page's requests (`--header` where it applies to the URL), cookies included as `cookie`. */
	headers?: (url: string) => Record<string, string>;
	/** Whether the page may request `url` (robots.txt, `--deny-private`); a refused request is aborted. */
	allow?: (url: string) => boolean | Promise<boolean>;
	/** `--deny-private`: every request the page causes is refused a private address, after DNS (the guard proxy). */
	denyPrivate?: boolean | undefined;
	/** The run's cookies (`--cookies`), put in the page's context for the browser to send by their own rules. */
	cookies?: (() => BrowserCookieData[]) | undefined;
	/** The rendered DOM is cut at this many bytes (`--max-body`). */
	maxBytes?: number | undefined;
	/**
	 * Answers already fetched for the page's data requests (by got, revalidating them), by
	 * URL: the page's first XHR or fetch GET of each is given its answer instead of going out again.
	 */
	handed?: ReadonlyMap<string, HandedAnswer> | undefined;
}

/** A data request's answer as got received it, its body decoded. */
export interface HandedAnswer {
	status: number;
	headers: Record<string, string>;
	body: Buffer;
}

/**
 * A bounded pool of browser pages (`--render-concurrency`), one browser context per host.
 * `render` serves `body` as the document at `url` through request interception (it is
 * not downloaded again), and so the `handed` answers of its data requests, blocks images,
 * fonts and media, lets other requests go out under `allow`, and resolves to the rendered
 * page; it rejects with a RenderError.
 */
export interface Renderer {
	render(url: string, body: Buffer, contentType: string | undefined, options: RenderOptions, signal?: AbortSignal): Promise<Rendered>;
	/** Pages rendered so far, browser restarts after a crash or a hang, popups closed, renderers killed for their memory and the largest seen (bytes). */
	stats(): { renders: number; restarts: number; popups: number; memoryKills: number; peakRendererBytes: number };
	close(): Promise<void>;
}
