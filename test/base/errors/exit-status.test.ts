import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
	ConfigError,
	ERROR_CODES,
	EXIT,
	exitStatusFor,
	PipelineError,
	RevisitError,
	StoreError,
	UsageError,
	type ErrorCode,
} from '../../../src/base/errors/index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The errors page's table (docs/17-errors.md): `| \`CODE\` | where | exit |`, code to documented exit status. */
function documented(): Map<string, number> {
	const table = readFileSync(path.join(root, 'docs/17-errors.md'), 'utf8');
	const rows = [...table.matchAll(/^\| `([A-Z_]+)` \|.*\| (\d+) \|$/gm)];
	return new Map(rows.map(([, code, exit]) => [code!, Number(exit)]));
}

/** Codes the source raises: `new XxxError('CODE'` and ConfigError's `code: 'CONFIG_…'`. */
function raised(): Set<string> {
	const codes = new Set<string>();
	const walk = (dir: string): void => {
		for (const name of readdirSync(dir)) {
			const full = path.join(dir, name);
			if (statSync(full).isDirectory()) walk(full);
			else if (name.endsWith('.ts')) {
				const text = readFileSync(full, 'utf8');
				for (const [, code] of text.matchAll(/new (?:Revisit|Store|Pipeline|Fleet|Render)Error\(\s*'([A-Z_]+)'/g)) codes.add(code!);
				for (const [, code] of text.matchAll(/code: '(CONFIG_[A-Z_]+)'/g)) codes.add(code!);
			}
		}
	};
	walk(path.join(root, 'src'));
	return codes;
}

describe('exitStatusFor', () => {
	it("maps every code in the errors page's table to the exit status documented there", () => {
		const table = documented();
		expect(table.size).toBeGreaterThanOrEqual(16);
		for (const [code, exit] of table) expect([code, exitStatusFor(new RevisitError(code as ErrorCode, 'x'))]).toEqual([code, exit]);
	});

	it('documents exactly the codes of ERROR_CODES, the list the ErrorCode type is made from', () => {
		expect([...documented().keys()].sort()).toEqual([...ERROR_CODES].sort());
	});

	it('documents every code the source raises', () => {
		const table = documented();
		const codes = raised();
		expect(codes.size).toBeGreaterThan(10);
		const missing = [...codes].filter((code) => !table.has(code));
		expect(missing).toEqual([]);
	});

	it("gives the statuses the README's exit-status table names: usage 2, a failed sink 1, stdout closed 141", () => {
		expect(exitStatusFor(new UsageError('bad flag'))).toBe(2);
		expect(exitStatusFor(new ConfigError(['bad']))).toBe(2);
		expect(exitStatusFor(new StoreError('STORE_LOCKED', 'locked'))).toBe(2);
		expect(exitStatusFor(new PipelineError('SINK_FAILED', 'sink'))).toBe(1);
		expect(exitStatusFor(new PipelineError('SOURCE_FAILED', 'source'))).toBe(2);
		expect(exitStatusFor(new RevisitError('OUTPUT_CLOSED', 'closed'))).toBe(141);
		expect(EXIT).toMatchObject({ ok: 0, someFailed: 1, usage: 2, churnBlocked: 3, interrupted: 130, outputClosed: 141 });
	});

	it('gives 70 (EX_SOFTWARE) to an error that is not a RevisitError, or has a code it does not know', () => {
		expect(exitStatusFor(new TypeError('undefined is not a function'))).toBe(70);
		expect(exitStatusFor('a string')).toBe(70);
		expect(exitStatusFor(undefined)).toBe(70);
		// The type refuses it; a RevisitError from another copy of revisit may still carry one.
		expect(exitStatusFor(new RevisitError('SOMETHING_NEW' as ErrorCode, 'x'))).toBe(70);
		expect(EXIT.internal).toBe(70);
	});
});
