import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';

/**
 * A program's absolute path (the usual Debian places first, then PATH), or undefined
 * when it is not installed.
 *
 * @example
 * findProgram('redis-server') // '/usr/bin/redis-server'
 */
export function findProgram(name: string): string | undefined {
	return ['/usr/local/bin', '/usr/bin', '/usr/local/sbin', '/usr/sbin', ...(process.env['PATH'] ?? '').split(path.delimiter)]
		.filter(Boolean)
		.map((dir) => path.join(dir, name))
		.find((candidate) => {
			try {
				accessSync(candidate, constants.X_OK);
				return true;
			} catch {
				return false;
			}
		});
}

/** A Debian program a suite needs: its name, where it was found, and how to install it. */
export interface Needed {
	name: string;
	path: string | undefined;
	install: string;
	/** Skip without a line of its own (a global setup says it once). */
	quiet?: boolean;
}

/**
 * A describe block for tests that need a Debian program: skipped when it is missing (with
 * one line naming the package and the install command, unless `quiet`), except under
 * CI=true, where that fails.
 *
 * @example
 * describeNeeding({ name: 'tinyproxy', path: findProgram('tinyproxy'), install: 'apt-get install -y tinyproxy' }, 'a proxy', () => { ... });
 */
export function describeNeeding(needed: Needed, title: string, body: () => void): void {
	if (needed.path) return void describe(title, body);
	if (process.env['CI'] !== 'true') {
		if (!needed.quiet) console.warn(`skipping "${title}": ${needed.name} is not installed (${needed.install})`);
		return void describe.skip(title, body);
	}
	describe(title, () => {
		it(`needs ${needed.name}`, () => {
			throw new Error(`${needed.name} is not installed; CI=true needs it: ${needed.install}`);
		});
	});
}
