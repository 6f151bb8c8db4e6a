import { describe, expect, it } from 'vitest';
import { exitStatusFor, RevisitError } from '../../../src/base/errors/index.js';
import { RenderError } from '../../../src/net/render/errors.js';
import { URL_ERROR_CODES } from '../../../src/domain/task/types.js';

describe('RenderError', () => {
	it("is a RevisitError: NO_BROWSER ends the run with 2; the others are a URL's error verdict", () => {
		const cause = new Error('spawn failed');
		const error = new RenderError('RENDER_FAILED', 'no page', { cause });
		expect(error).toBeInstanceOf(RevisitError);
		expect([error.name, error.code, error.cause]).toEqual(['RenderError', 'RENDER_FAILED', cause]);
		expect(exitStatusFor(new RenderError('NO_BROWSER', 'x'))).toBe(2);
		expect(URL_ERROR_CODES).not.toContain('NO_BROWSER');
		expect(URL_ERROR_CODES).toEqual(expect.arrayContaining(['RENDER_TIMEOUT', 'BROWSER_CRASHED', 'RENDER_FAILED']));
	});
});
