import { describe, expect, it } from 'vitest';
import { ConfigError, exitStatusFor, OptionError, PipelineError, RevisitError, StoreError, UsageError } from '../../../src/base/errors/index.js';

describe('RevisitError', () => {
	it('carries a stable code beside its message, and is an Error', () => {
		const error = new RevisitError('OUTPUT_CLOSED', 'stdout closed');
		expect(error).toBeInstanceOf(Error);
		expect(error.code).toBe('OUTPUT_CLOSED');
		expect(error.message).toBe('stdout closed');
		expect(error.name).toBe('RevisitError');
	});

	it('keeps the error that caused it as `cause`', () => {
		const cause = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
		const error = new StoreError('STORE_OPEN_FAILED', 'cannot open the store', { cause });
		expect(error.cause).toBe(cause);
		expect(error.code).toBe('STORE_OPEN_FAILED');
	});

	it('has a subclass per kind of failure, each a RevisitError named after itself', () => {
		const errors = [new UsageError('bad flag'), new StoreError('STORE_LOCKED', 'locked'), new ConfigError(['x']), new PipelineError('SINK_FAILED', 'sink')];
		expect(errors.map((error) => [error.name, error.code, error instanceof RevisitError])).toEqual([
			['UsageError', 'USAGE', true],
			['StoreError', 'STORE_LOCKED', true],
			['ConfigError', 'CONFIG_INVALID', true],
			['PipelineError', 'SINK_FAILED', true],
		]);
	});

	it('takes only the documented codes, each class its own (a typecheck: npm run typecheck compiles the tests)', () => {
		// @ts-expect-error: a misspelt code is not an ErrorCode
		const misspelt = new RevisitError('STORE_LOKED', 'x');
		// @ts-expect-error: a StoreError's code is one of the STORE_ codes
		const foreign = new StoreError('SINK_FAILED', 'x');
		// @ts-expect-error: a PipelineError is SOURCE_FAILED or SINK_FAILED
		const other = new PipelineError('STORE_LOCKED', 'x');
		const code: 'STORE_LOCKED' | 'OUTPUT_CLOSED' | 'USAGE' extends RevisitError['code'] ? true : false = true;
		expect([misspelt.code, foreign.code, other.code, code]).toEqual(['STORE_LOKED', 'SINK_FAILED', 'STORE_LOCKED', true]);
	});

	it('an OptionError is OPTION_INVALID, names the option, and exits 2 as a usage error does', () => {
		const error = new OptionError('concurrency', 'Expected `concurrency` to be a positive integer, got `0`');
		expect([error instanceof RevisitError, error.name, error.code, error.option, exitStatusFor(error)]).toEqual([
			true,
			'OptionError',
			'OPTION_INVALID',
			'concurrency',
			2,
		]);
	});

	it('a UsageError is always USAGE and keeps its cause', () => {
		const cause = new TypeError('Expected a number');
		const error = new UsageError('--ttl: not a duration', { cause });
		expect(error.code).toBe('USAGE');
		expect(error.cause).toBe(cause);
	});

	it('a ConfigError lists its problems, one line each, and says how many', () => {
		const one = new ConfigError(['nightly.json:3: sinks[0].type: expected one of stdout, file']);
		expect(one.problems).toEqual(['nightly.json:3: sinks[0].type: expected one of stdout, file']);
		expect(one.message).toBe('nightly.json:3: sinks[0].type: expected one of stdout, file');
		const two = new ConfigError(['a: wrong', 'b: missing']);
		expect(two.message).toBe('2 problems:\na: wrong\nb: missing');
	});

	it('a ConfigError for a file that cannot be read has its own code', () => {
		const cause = new Error('ENOENT');
		const error = new ConfigError(['nightly.json: no such file'], { code: 'CONFIG_UNREADABLE', cause });
		expect(error.code).toBe('CONFIG_UNREADABLE');
		expect(error.cause).toBe(cause);
	});
});
