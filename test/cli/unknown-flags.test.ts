import { access, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';

describe('unknown flags', () => {
	let work: { dir: string; cleanup(): Promise<void> };
	beforeEach(async () => {
		work = await tempDir('revisit-flags-');
	});
	afterEach(() => work.cleanup());

	it.each([
		[['sweep', '--concurency', '4'], 'unknown flag --concurency: did you mean --concurrency?'],
		[['sweep', '--concurency=4'], 'unknown flag --concurency: did you mean --concurrency?'],
		[['sweep', '--perhost', '2'], 'unknown flag --perhost: did you mean --per-host?'],
		[['sweep', '--Quiet'], 'unknown flag --Quiet: did you mean --quiet?'],
		[['sweep', '-Q'], 'unknown flag -Q: did you mean -q?'],
		[['crawl', '--out', 'pages', '--fetch-concurency', '2'], 'unknown flag --fetch-concurency: did you mean --fetch-concurrency?'],
		[['sweep', '--foo'], 'unknown flag --foo'],
		[['sweep', '--concurency', '4', '--foo'], 'unknown flag --concurency: did you mean --concurrency?; unknown flag --foo'],
		[['stats', 'extra'], 'unexpected argument: extra'],
	])('%j: exit 2, the flag named as typed, with the nearest flag of that command', async (args, message) => {
		const { status, stderr, stdout } = await runCli(args);
		expect(status).toBe(2);
		expect(stderr.split('\n')[0]).toBe(`revisit: ${message}`);
		expect(stdout).toBe('');
	});

	describe('a sweep flag given to run', () => {
		const pipeline = async () => {
			const file = path.join(work.dir, 'p.json');
			await writeFile(file, JSON.stringify({ store: path.join(work.dir, 'store'), source: { type: 'stdin' }, sinks: [{ type: 'stdout' }] }));
			return file;
		};

		it.each([
			[['--concurrency', '4'], 'revisit run takes no --concurrency: set it in the pipeline file, or with --set concurrency=4'],
			[['--per-host=2'], 'revisit run takes no --per-host: set it in the pipeline file, or with --set perHost=2'],
			[['--insecure'], 'revisit run takes no --insecure: set it in the pipeline file, or with --set insecure=true'],
			[['--store', 'elsewhere'], 'revisit run takes no --store: set it in the pipeline file, or with --set store=elsewhere'],
		])('%j points to --set, and nothing runs', async (flags, message) => {
			const file = await pipeline();
			const { status, stderr } = await runCli(['run', file, ...flags]);
			expect(status).toBe(2);
			expect(stderr.split('\n')[0]).toBe(`revisit: ${message}`);
			await expect(access(path.join(work.dir, 'store'))).rejects.toThrow();
		});

		it('the --set it suggests is one run accepts', async () => {
			const file = await pipeline();
			const { status, stderr } = await runCli(['run', file, '--quiet', '--set', 'concurrency=4', '--set', 'perHost=2', '--set', 'insecure=true']);
			expect(stderr).toBe('');
			expect(status).toBe(0);
		});

		it('check says the same', async () => {
			const file = await pipeline();
			const { status, stderr } = await runCli(['check', file, '--timeout=5']);
			expect(status).toBe(2);
			expect(stderr.split('\n')[0]).toBe('revisit: revisit check takes no --timeout: set it in the pipeline file, or with --set timeout=5');
		});
	});
});
