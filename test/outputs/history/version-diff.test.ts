import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { wordDiffText } from '../../../src/domain/content/word-diff-text.js';
import { compareTexts, unifiedPatch } from '../../../src/outputs/history/version-diff.js';
import { tempDir } from '../../helpers/cli.js';

const run = promisify(execFile);

describe('two versions compared', () => {
	it('word by word: the words added and removed, numbers whole, as brackets or in colour', () => {
		const before = 'Kettle\nPrice $24.50 in stock\nShips in 2 days';
		const after = 'Kettle\nPrice $21.00 in stock\nShips in 5 working days';
		const comparison = compareTexts(before, after);
		expect({ same: comparison.same, added: comparison.added, removed: comparison.removed }).toEqual({ same: false, added: 3, removed: 2 });
		expect(wordDiffText(comparison.hunks!)).toBe('Kettle\nPrice [-$24.50-]{+$21.00+} in stock\nShips in [-2-]{+5+} {+working +}days');
		expect(
			wordDiffText(
				[
					[
						[0, 'a '],
						[-1, 'b\nc'],
						[1, 'd'],
					],
				],
				'color',
			),
		).toBe('a \x1b[31mb\x1b[m\n\x1b[31mc\x1b[m\x1b[32md\x1b[m');
	});

	it('the same text is the same, with nothing to show', () => {
		expect(compareTexts('a b', 'a b')).toEqual({ same: true, hunks: [], added: 0, removed: 0 });
		expect(unifiedPatch('a\n', 'a\n', { label: 'x', time: 0 }, { label: 'y', time: 0 })).toBe('');
	});

	it('as a unified diff that patch(1) applies to the first text to give the second', async () => {
		const lines = Array.from({ length: 40 }, (_, i) => `Line ${i} of the page`);
		const before = lines.join('\n');
		const after = [...lines.slice(0, 10), 'A new line', ...lines.slice(11, 30), 'Line 30 of the page, edited', ...lines.slice(31)].join('\n') + '\n';
		const patch = unifiedPatch(
			before,
			after,
			{ label: 'https://example.org/ (version 1)', time: Date.parse('2026-12-01T10:00:00Z') },
			{ label: 'https://example.org/ (version 2)', time: Date.parse('2026-12-02T10:00:00Z') },
		);
		expect(patch.split('\n').slice(0, 3)).toEqual([
			'--- https://example.org/ (version 1)\t2026-12-01 10:00:00.000 +0000',
			'+++ https://example.org/ (version 2)\t2026-12-02 10:00:00.000 +0000',
			'@@ -8,7 +8,7 @@',
		]);
		const { dir, cleanup } = await tempDir();
		try {
			const file = path.join(dir, 'page.txt');
			await writeFile(file, before);
			await writeFile(path.join(dir, 'page.patch'), patch);
			await run('patch', ['--quiet', '--batch', file, path.join(dir, 'page.patch')]);
			expect(await readFile(file, 'utf8')).toBe(after);
		} finally {
			await cleanup();
		}
	});
});
