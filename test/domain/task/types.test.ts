import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REASONS, URL_ERROR_CODES, type PageData, type Reason, type Task, type TaskFlow, type UrlErrorCode, type Verdict } from '../../../src/index.js';

const read = (file: string) => readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');

describe('verdict reasons and error codes', () => {
	it("REASONS, the list the Reason type is made from, is the README's verdict table", () => {
		const verdicts = read('README.md').split('## Verdicts')[1]!.split('\n## ')[0]!;
		const documented = [...verdicts.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map(([, reason]) => reason);
		expect(documented).toEqual([...REASONS]);
	});

	it('the errors page names every code revisit gives a failed URL itself', () => {
		const page = read('docs/17-errors.md').split('## Per-URL failures')[1]!;
		expect(URL_ERROR_CODES.filter((code) => !page.includes(`\`${code}\``))).toEqual([]);
		expect(page).toContain('`HTTP_<status>`');
	});

	it("types a verdict's reason as the union, not string (a typecheck: npm run typecheck compiles the tests)", () => {
		// @ts-expect-error: not a reason
		const wrong: Verdict['reason'] = 'changed';
		const every: Record<Reason, true> = Object.fromEntries(REASONS.map((reason) => [reason, true])) as Record<Reason, true>;
		const http: UrlErrorCode = 'HTTP_503';
		const verdict: Verdict = { url: 'https://example.org/', changed: false, reason: 'error', error: { code: http, message: 'server answered 503' } };
		expect([wrong, Object.keys(every).length, verdict.error?.code]).toEqual(['changed', REASONS.length, 'HTTP_503']);
	});

	it("keeps a task's flow apart from its page's data: two parts with no field in common that make up Task (a typecheck)", () => {
		const disjoint: [keyof TaskFlow & keyof PageData] extends [never] ? true : false = true;
		const whole: [Exclude<keyof Task, keyof TaskFlow | keyof PageData>] extends [never] ? true : false = true;
		// @ts-expect-error: the valve's bookkeeping is not the page's data
		const page: PageData = { url: 'https://example.org/', parked: true };
		// @ts-expect-error: nor is the verdict the flow's
		const flow: TaskFlow = { line: 1, input: 'https://example.org/', verdict: { url: 'https://example.org/', changed: false, reason: '304' } };
		expect([disjoint, whole, page.url, flow.line]).toEqual([true, true, 'https://example.org/', 1]);
	});
});
