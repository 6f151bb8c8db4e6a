import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { descriptorBudget, openFileLimit, RESERVED_DESCRIPTORS } from '../../../src/base/util/descriptors.js';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max processes             96362                96362                processes
Max open files            1024                 524288               files
Max locked memory         8388608              8388608              bytes
`;

describe('openFileLimit', () => {
	it('reads the soft limit on open files from /proc/self/limits', () => {
		expect(openFileLimit(() => LIMITS)).toBe(1024);
	});

	it('is undefined where the limits can not be read or say unlimited', () => {
		expect(
			openFileLimit(() => {
				throw new Error('ENOENT');
			}),
		).toBeUndefined();
		expect(openFileLimit(() => LIMITS.replace('1024 ', 'unlimited'))).toBeUndefined();
	});

	it("reads the limit prlimit sets, in the kernel's own format", () => {
		const run = spawnSync('prlimit', ['--nofile=300', 'cat', '/proc/self/limits'], { encoding: 'utf8' });
		expect(openFileLimit(() => run.stdout)).toBe(300);
	});
});

describe('descriptorBudget', () => {
	it.each([
		[256, 74, 256 - 74 - RESERVED_DESCRIPTORS],
		[1024, 74, 1024 - 74 - RESERVED_DESCRIPTORS],
		[20_000, 74, 20_000 - 74 - RESERVED_DESCRIPTORS],
	])('splits a limit of %i: LevelDB %i files (its floor, whatever the limit: it maps the tables it holds), sockets %i', (limit, storeFiles, sockets) => {
		expect(descriptorBudget(limit)).toEqual({ storeFiles, sockets });
	});

	it('always leaves the HTTP side one socket, however low the limit', () => {
		expect(descriptorBudget(64).sockets).toBe(1);
	});

	it('keeps LevelDB at its floor and sockets uncapped when the limit is unknown', () => {
		expect(descriptorBudget(undefined)).toEqual({ storeFiles: 74, sockets: Number.POSITIVE_INFINITY });
	});
});
