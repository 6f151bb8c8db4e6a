import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { howItEnded } from '../../../src/base/util/shell.js';

describe('howItEnded', () => {
	it('says nothing for exit status 0, and how it ended otherwise', async () => {
		await expect(howItEnded(spawn('/bin/sh', ['-c', 'exit 0']))).resolves.toBeUndefined();
		await expect(howItEnded(spawn('/bin/sh', ['-c', 'exit 3']))).resolves.toBe('exited with status 3');
		await expect(howItEnded(spawn('/bin/sh', ['-c', 'kill -TERM $$']))).resolves.toBe('was killed by SIGTERM');
		await expect(howItEnded(spawn('/nonexistent/revisit-test-binary'))).resolves.toMatch(/^could not be started: .*ENOENT/);
	});
});
