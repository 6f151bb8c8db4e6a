import { RevisitError } from '../../base/errors/index.js';

/** The codes a RenderError carries. */
export type RenderErrorCode = 'NO_BROWSER' | 'RENDER_TIMEOUT' | 'RENDER_TOO_LARGE' | 'BROWSER_CRASHED' | 'RENDER_FAILED';

/**
 * A page could not be rendered. `NO_BROWSER` (no browser at the path given: exit 2, the
 * run cannot render anything) is the run's; `RENDER_TIMEOUT` (not ready in time),
 * `RENDER_TOO_LARGE` (the page's renderer grew past `--render-memory` and was killed),
 * `BROWSER_CRASHED` (the browser died or stopped answering; it is relaunched) and
 * `RENDER_FAILED` (the browser would not start, or the page failed) are one URL's, an
 * `error` verdict with that code.
 *
 * @example
 * catch (error) { if (error instanceof RenderError && error.code !== 'NO_BROWSER') verdict.error = { code: error.code, message: error.message }; }
 */
export class RenderError extends RevisitError {
	override readonly name = 'RenderError';
	declare readonly code: RenderErrorCode;
	constructor(code: RenderErrorCode, message: string, options?: { cause?: unknown }) {
		super(code, message, options);
	}
}
