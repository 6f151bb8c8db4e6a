import { defer, type MonoTypeOperatorFunction } from 'rxjs';
import { createRobotsGate, type RobotsGateOptions } from '../net/robots/gate.js';
import { countedText } from '../domain/content/counted.js';
import { ruleFor, type Rule } from '../domain/content/rules.js';
import { isHtml } from '../domain/content/visible-text.js';
import { mergeAsync } from '../base/flow/merge-async.js';
import { countBody } from '../net/http/count-body.js';
import { assertPublicHost } from '../net/http/guard.js';
import { send, type RetryPolicy, type SendDeps } from '../net/http/send.js';
import { liveRecord } from '../net/http/target.js';
import { drawnByScript } from '../net/render/drawn.js';
import type { HandedAnswer, Renderer, RenderOptions } from '../net/render/types.js';
import type { DataRequest } from '../store/model/types.js';
import type { ProbeResult, Task } from '../domain/task/types.js';
import { positiveInteger } from '../base/util/checks.js';
import type { HostBook } from '../net/hosts/book.js';
import { templateOf } from '../net/hosts/noise.js';
import { OptionError } from '../base/errors/index.js';

export type RenderMode = 'never' | 'auto' | 'always';

export interface RenderStageDeps extends SendDeps {
	renderer: Renderer;
	/** The run's hosts: which URL templates of each need rendering (`HostRecord.render`). */
	book: HostBook;
}

export interface RenderStageOptions extends RetryPolicy {
	/** The run's `--render`, for URLs whose rule does not say. */
	mode: RenderMode;
	rules: readonly Rule[];
	/** `--render-timeout` in ms. */
	timeoutMs: number;
	/** Tasks handled at once (renders are bounded by the renderer's own pool). */
	highWater: number;
	/** Chance that a page known to need rendering has its static HTML tried again (a site may move to server rendering). */
	retestRate?: number | undefined;
	/** What the page may request besides robots.txt (`--deny-private`), and the headers to send with a request of the page at `page`. */
	allow?: ((url: string) => boolean) | undefined;
	/** `--deny-private`: every request a page causes is refused a private address after DNS (the renderer's guard proxy). */
	denyPrivate?: boolean | undefined;
	/** The run's cookies, for the browser to send by their own rules. */
	cookies?: RenderOptions['cookies'];
	/** `--max-body`: the rendered DOM is cut there. */
	maxBytes?: number | undefined;
	/** Obey robots.txt for the page's own requests too (`--robots obey`): the gate's settings. */
	robots?: RobotsGateOptions | undefined;
	headers?: ((url: string, page: string) => Record<string, string>) | undefined;
}

/**
 * Renders in Chromium the pages whose static HTML cannot answer their rule (`--render
 * auto`: a select or product rule that matched nothing, or a page its scripts draw),
 * or every page (`always`), and counts the rendered DOM instead. A page rendered before is
 * checked without a browser: its document and the data requests its render recorded are
 * revalidated with got, and only when one of them moved is it rendered again. Per-URL
 * failures (a timeout, a crashed browser) become the task's error.
 *
 * @example
 * tasks$.pipe(probe(options, deps), render({ mode: 'auto', rules, timeoutMs: 10_000, highWater: 256, ...retry }, { ...deps, renderer }), compare(...))
 */
export function render(options: RenderStageOptions, deps: RenderStageDeps): MonoTypeOperatorFunction<Task> {
	const highWater = positiveInteger('highWater', options.highWater);
	if (!['never', 'auto', 'always'].includes(options.mode))
		throw new OptionError('mode', `Expected \`mode\` to be never, auto or always, got \`${options.mode}\``);
	const modeOf = (url: string): RenderMode => ruleFor(options.rules, url)?.render ?? options.mode;
	return (source) =>
		defer(() => {
			// One gate per run, as the robots stage's: each origin's robots.txt fetched once.
			const gate = options.robots ? createRobotsGate(deps, options.robots) : undefined;
			const allow = async (url: string): Promise<boolean> => {
				if (options.allow && !options.allow(url)) return false;
				if (!gate) return true;
				const origin = new URL(url).origin;
				return (gate.checkNow(url, origin) ?? (await gate.check(url, origin))).verdict === 'allow';
			};
			const checked = { ...options, check: options.allow || gate ? allow : undefined };
			return source.pipe(
				mergeAsync((task) => {
					const mode = task.skip || task.url === undefined || task.verdict || !task.probe || task.probe.error ? 'never' : modeOf(task.url);
					// The probe kept every 2xx body for this stage: one that will not be rendered goes now, not at the commit.
					if (mode === 'never') return void drop(task);
					return (signal) => renderOne(deps, checked, mode, task, signal);
				}, highWater),
			);
		});
}

async function renderOne(
	deps: RenderStageDeps,
	options: RenderStageOptions & { check: RenderOptions['allow'] },
	mode: RenderMode,
	task: Task,
	signal: AbortSignal,
): Promise<Task> {
	const url = task.url!;
	const probe = task.probe!;
	const known = liveRecord(task.record)?.render;
	let base: ProbeResult;
	let handed: Map<string, HandedAnswer> | undefined;
	if (probe.status === 304) {
		if (!known) return task;
		// A rendered page's record holds the rendered page's hash: an audit's static body would
		// look like a lie. Its data requests are its audit.
		if (probe.audit) task.probe = { ...probe, audit: undefined };
		// Unchanged document: unchanged page, unless something it loaded moved.
		const revalidated = await revalidate(deps, options, url, known.data.slice(1), signal);
		if (!revalidated.moved) return task;
		handed = revalidated.handed;
		base = await send(deps, options, { method: 'GET', url, origin: task.origin, headers: {}, bodyMode: 'keep', followUp: true }, signal);
		if (base.error || base.status < 200 || base.status >= 300 || !base.body) {
			task.probe = base;
			return task;
		}
	} else if (probe.status >= 200 && probe.status < 300 && probe.body) {
		base = probe;
	} else return task;
	const body = base.body!;
	if (!isHtml(base.contentType, body.toString('utf8', 0, 512))) return drop(task);
	const rule = ruleFor(options.rules, url);
	const origin = task.origin ?? new URL(url).origin;
	const template = templateOf(url);
	// A page rendered before, or a new page of a template whose pages need rendering, skips the static try, but for a sample.
	const expected = known !== undefined || (task.record == null && (deps.book.get(origin).render?.[template]?.pages ?? 0) > 0);
	const retest = expected && deps.random() < (options.retestRate ?? 0.1);
	if (mode === 'auto' && (!expected || retest) && staticAnswers(rule, base, body)) {
		if (known) remember(deps.book, origin, template, -1, -known.data.length);
		return drop(task);
	}
	try {
		const rendered = await deps.renderer.render(
			url,
			body,
			base.contentType,
			{
				timeoutMs: options.timeoutMs,
				waitFor: waitFor(rule),
				reads: reads(rule, url),
				allow: options.check,
				headers: options.headers && ((request) => options.headers!(request, url)),
				denyPrivate: options.denyPrivate,
				cookies: options.cookies,
				maxBytes: options.maxBytes,
				handed,
			},
			signal,
		);
		const result: ProbeResult = { ...base, rendered: true };
		delete result.body;
		countBody(deps.http, result, url, Buffer.from(rendered.html), 'text/html; charset=utf-8');
		// Judged by what was rendered; the document's own hash and validators are kept for revalidation.
		const document: DataRequest = {
			url,
			hash: base.hash!,
			...(base.etag ? { etag: base.etag } : {}),
			...(base.lastModified ? { lastModified: base.lastModified } : {}),
		};
		result.renderData = [document, ...rendered.data.filter((item) => item.url !== url)];
		task.probe = result;
		remember(deps.book, origin, template, known ? 0 : 1, result.renderData.length - (known?.data.length ?? 0));
	} catch (error) {
		if (signal.aborted) throw error;
		const code = (error as { code?: string }).code ?? 'RENDER_FAILED';
		task.probe = { ...base, body: undefined, error: { code, message: (error as Error).message } };
	}
	return task;
}

/** The body is no longer needed once the static page answered. */
function drop(task: Task): Task {
	if (task.probe?.body) task.probe = { ...task.probe, body: undefined };
	return task;
}

/**
 * Whether the static HTML answers the rule: a select or product rule matched (its
 * content says `matched`), and the page is not drawn by its scripts (net/render/drawn.ts).
 */
function staticAnswers(rule: Rule | undefined, probe: ProbeResult, body: Buffer): boolean {
	if ((rule?.select || rule?.product) && probe.content?.matched !== true) return false;
	return !drawnByScript(body.toString('utf8'));
}

/** Where a product's offer shows once a script has written it. */
const OFFER_MARKUP = ['script[type="application/ld+json"]', '[itemprop="price"]', 'meta[property="product:price:amount"]'];

/** What the page is ready at: the rule's selectors (or the offer's markup) with something in them, else network idle (see `reads`). */
function waitFor(rule: Rule | undefined): string[] | undefined {
	if (rule?.select) return rule.select.map((selector) => selector.source);
	if (rule?.product) return [...(rule.product.price ?? []).map((selector) => selector.source), ...OFFER_MARKUP];
	return undefined;
}

/**
 * A product rule's page is also ready once the network is idle and the page, read as a
 * static page is (the page reader included: a title, a price, a buy button), has an offer:
 * a product a script draws without structured data is read as soon as it is drawn. (A
 * select rule's selectors are checked in the page: an empty placeholder is not ready.)
 */
function reads(rule: Rule | undefined, url: string): ((html: string) => boolean) | undefined {
	if (!rule?.product) return undefined;
	return (html) => countedText(rule, Buffer.from(html), 'text/html', { url }).matched === true;
}

/**
 * Whether any recorded data request answers otherwise than when it was recorded: asked
 * conditionally with got (a 304, or a 200 of the same hash, is unmoved). A failure counts
 * as moved: the render that follows says what went wrong. Each goes with the headers the
 * render gave it: the user's secret ones only to the page's own origin. The 2xx answers
 * not redirected are `handed` to the render that follows, so that the browser does not
 * fetch them again (a redirected one goes out again: the page must see where it ended).
 */
async function revalidate(
	deps: RenderStageDeps,
	options: RenderStageOptions,
	page: string,
	data: readonly DataRequest[],
	signal: AbortSignal,
): Promise<{ moved: boolean; handed: Map<string, HandedAnswer> }> {
	const secretsTo = new URL(page).origin;
	const answers = await Promise.all(
		data.map((item) => {
			const headers: Record<string, string> = {};
			if (item.etag) headers['if-none-match'] = item.etag;
			if (item.lastModified) headers['if-modified-since'] = item.lastModified;
			return send(deps, options, { method: 'GET', url: item.url, headers, bodyMode: 'hand', followUp: true, secretsTo }, signal);
		}),
	);
	const handed = new Map<string, HandedAnswer>();
	for (const [i, answer] of answers.entries()) {
		if (answer.body && answer.responseHeaders && answer.finalUrl === data[i]!.url)
			handed.set(data[i]!.url, { status: answer.status, headers: answer.responseHeaders, body: answer.body });
	}
	return { moved: answers.some((answer, i) => answer.error !== undefined || (answer.status !== 304 && answer.hash !== data[i]!.hash)), handed };
}

/**
 * Whether a page's request may go out under `--deny-private`: not to a private address
 * written as such. (A name resolving to one is refused by the document's own request, which
 * goes through got's guarded lookup; the browser's own lookups are not guarded.)
 *
 * @example
 * publicHost('http://10.0.0.1/api') // false
 */
export function publicHost(url: string): boolean {
	try {
		assertPublicHost(url);
		return true;
	} catch {
		return false;
	}
}

/** Counts a page that came to need rendering (or no longer does) in its host's record, by URL template. */
function remember(book: HostBook, origin: string, template: string, pages: number, data: number): void {
	if (pages === 0 && data === 0) return;
	const host = book.get(origin);
	const render = { ...host.render };
	const now = render[template] ?? { pages: 0, data: 0 };
	const next = { pages: Math.max(0, now.pages + pages), data: Math.max(0, now.data + data) };
	if (next.pages === 0) delete render[template];
	else render[template] = next;
	book.set(origin, { ...host, render });
}
