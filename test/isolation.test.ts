import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// vitest.config.ts runs the test files of a worker in one module graph (isolate: false), which
// took the full run from 690 s to 483 s. That holds only while no file changes what the next
// one imports or sees: a mocked module, a stubbed global or environment variable, fake timers.
const TEST = fileURLToPath(new URL('./', import.meta.url));
const LEAKS = /\bvi\.(?:mock|doMock|stubEnv|stubGlobal|useFakeTimers|spyOn)\b|process\.env(?:\.\w+|\[[^\]]+\])\s*=(?!=)|delete\s+process\.env/;

async function testFiles(dir: string): Promise<string[]> {
	const entries = await readdir(dir, { withFileTypes: true });
	const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? testFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)])));
	return nested.flat().filter((file) => /\.(?:ts|mjs|js)$/.test(file));
}

describe('test files sharing a worker', () => {
	it('leave nothing behind for the next file: no module mocks, global or environment stubs, or fake timers', async () => {
		const self = fileURLToPath(import.meta.url);
		const files = (await testFiles(TEST)).filter((file) => file !== self);
		const leaking = [];
		for (const file of files) if (LEAKS.test(await readFile(file, 'utf8'))) leaking.push(path.relative(TEST, file));
		expect(files.length).toBeGreaterThan(300);
		expect(leaking).toEqual([]);
	});
});
