import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../helpers/cli.js';
import { REDIS_SERVER, startRedis, type TestRedis } from '../helpers/redis.js';
import { startDocsSite, URLS_TXT } from './site.js';

// The docs' examples run here, so they cannot drift from the CLI. A block is run when its
// fence says ```sh check (or ```sh check exit=N when it should end with status N), or
// ```js check for a library example; plain ```sh blocks (other people's sites, installing
// packages) are left alone. docs/internals/2-development.md explains the conventions to writers.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = 'README.md';
const README_MAX_LINES = 250;

interface Block {
	/** `docs/1-usage.md:42`, the line of the opening fence. */
	where: string;
	script: string;
	/** `sh` runs with bash; `js` is an ES module run with node, importing this checkout as `revisit`. */
	language: 'sh' | 'js';
	exit: number;
	/**
	 * Commands the block uses that a bare machine may lack (`needs=jq,curl`): without them
	 * it is skipped. `redis` starts a redis-server for it and sets `$REDIS` to its URL.
	 */
	needs: string[];
	/**
	 * What it must print on stdout: the ```text prints block right after it, with the
	 * site's address written `$SITE`; `unordered` when the lines may come in any order.
	 */
	prints?: { text: string; unordered: boolean };
}

/**
 * Every page the check reads: README.md and every .md file under docs/ (the guide in
 * docs/, the internals in docs/internals/), relative to the repository.
 */
function pages(): string[] {
	const docs = readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
		.filter((name) => name.endsWith('.md'))
		.sort(byFolderAndNumber);
	return [README, ...docs.map((name) => `docs/${name.split(path.sep).join('/')}`)];
}

// A folder's pages after the guide's, and docs/10-notifications.md after docs/9-report.md, as in the index.
function byFolderAndNumber(a: string, b: string): number {
	const [folderA, folderB] = [path.dirname(a), path.dirname(b)];
	if (folderA !== folderB) return folderA === '.' ? -1 : folderB === '.' ? 1 : folderA.localeCompare(folderB);
	return parseInt(path.basename(a), 10) - parseInt(path.basename(b), 10) || a.localeCompare(b);
}

const RUNNABLE = new Set(['sh', 'bash', 'shell', 'console', 'js']);

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^`]*)$/;

/**
 * Reads the fenced blocks of one page. A fence whose info string has `check` must be `sh`
 * and may add `exit=N`; anything else there is a mistake, reported rather than skipped,
 * since a misspelt marker would quietly stop a block from being run.
 */
function blocksOf(file: string): { blocks: Block[]; problems: string[] } {
	const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
	const blocks: Block[] = [];
	const problems: string[] = [];
	// The closing fence's line of the last checked block, -1 before the first.
	let lastEnd = -1;
	for (let i = 0; i < lines.length; i++) {
		const open = FENCE.exec(lines[i]!);
		if (!open) continue;
		const [, indent, fence, info] = open;
		const start = i;
		const body: string[] = [];
		for (i++; i < lines.length; i++) {
			const line = lines[i]!;
			if (line.trim().startsWith(fence!) && line.trim().replace(/[`~]/g, '') === '') break;
			body.push(line.startsWith(indent!) ? line.slice(indent!.length) : line);
		}
		if (i === lines.length) problems.push(`${file}:${start + 1}: fence never closed`);
		const words = info!.trim().split(/\s+/).filter(Boolean);
		const where = `${file}:${start + 1}`;
		if (words[0] === 'text' && words.includes('prints')) {
			// Only blank lines may stand between a checked block and what it prints.
			const last = blocks.at(-1);
			const after = last === undefined ? -1 : lastEnd;
			const between = lines.slice(after + 1, start).every((line) => line.trim() === '');
			const unknown = words.slice(1).filter((word) => word !== 'prints' && word !== 'unordered');
			if (last === undefined || after < 0 || !between || last.prints !== undefined)
				problems.push(`${where}: a \`text prints\` block must come right after a checked block`);
			else if (unknown.length > 0) problems.push(`${where}: unknown word \`${unknown[0]}\` in the fence (use \`text prints\` or \`text prints unordered\`)`);
			else last.prints = { text: body.join('\n') + '\n', unordered: words.includes('unordered') };
			continue;
		}
		if (!words.includes('check')) {
			// ```sh chek would otherwise be a plain block, never run and never noticed.
			if (RUNNABLE.has(words[0] ?? '') && words.length > 1)
				problems.push(`${where}: \`${info!.trim()}\`: a sh or js fence takes nothing after its language but \`check\``);
			continue;
		}
		const language = words[0] === 'sh' || words[0] === 'js' ? words[0] : 'sh';
		if (language !== words[0]) problems.push(`${where}: a checked block must be \`sh\` or \`js\`, not \`${words[0]}\``);
		let exit = 0;
		let needs: string[] = [];
		for (const word of words.slice(1)) {
			const status = /^exit=(\d+)$/.exec(word);
			const tools = /^needs=([\w,-]+)$/.exec(word);
			if (status) exit = Number(status[1]);
			else if (tools) needs = tools[1]!.split(',');
			else if (word !== 'check') problems.push(`${where}: unknown word \`${word}\` in the fence (use \`sh check\` or \`sh check exit=N\`)`);
		}
		blocks.push({ where, script: body.join('\n') + '\n', language, exit, needs });
		lastEnd = i;
	}
	return { blocks, problems };
}

const parsed = pages().map(blocksOf);
const BLOCKS = parsed.flatMap((page) => page.blocks);
const FENCE_PROBLEMS = parsed.flatMap((page) => page.problems);

interface Ran {
	status: number | null;
	stdout: string;
	stderr: string;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.on('error', reject);
		child.on('close', (status) => resolve({ status, stdout, stderr }));
	});
}

function onPath(tool: string): boolean {
	if (tool === 'redis') return REDIS_SERVER !== undefined;
	return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir !== '' && existsSync(path.join(dir, tool)));
}

function tail(text: string, lines = 30): string {
	return text.split('\n').slice(-lines).join('\n');
}

describe('docs', () => {
	it('have no malformed fences', () => {
		expect(FENCE_PROBLEMS).toEqual([]);
	});

	it('mark examples to run', () => {
		// A guard against the extractor finding nothing (a changed fence style would pass every block vacuously).
		expect(BLOCKS.length).toBeGreaterThanOrEqual(30);
	});

	it(`keep README.md to ${README_MAX_LINES} lines or fewer`, () => {
		const lines = readFileSync(path.join(ROOT, README), 'utf8').replace(/\n$/, '').split('\n').length;
		expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
	});

	it('keep the set-up commands in README.md, and the scripts they name', () => {
		const readme = readFileSync(path.join(ROOT, README), 'utf8');
		const scripts = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
		// .ci/run runs `npm ci && npm test`; the README promises the same two commands.
		expect(readme).toContain('npm ci && npm test');
		expect(readme).toContain('npm ci && npm run demo');
		expect(Object.keys(scripts)).toEqual(expect.arrayContaining(['test', 'demo']));
	});

	it('index every docs page from README.md, and link only pages that exist', () => {
		const readme = readFileSync(path.join(ROOT, README), 'utf8');
		const linked = new Set([...readme.matchAll(/\]\((docs\/[^)#\s]+\.md)(#[^)]*)?\)/g)].map((m) => m[1]!));
		const present = new Set(pages().filter((file) => file !== README));
		expect(
			[...linked].filter((file) => !present.has(file)),
			'linked from README.md, missing',
		).toEqual([]);
		expect(
			[...present].filter((file) => !linked.has(file)),
			'in docs/, not linked from README.md',
		).toEqual([]);
	});

	it('link to files and headings that exist', () => {
		const broken: string[] = [];
		for (const file of pages()) {
			const text = readFileSync(path.join(ROOT, file), 'utf8');
			for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
				if (/^[a-z]+:/i.test(target!)) continue;
				const [linkPath, anchor] = target!.split('#') as [string, string | undefined];
				const resolved = linkPath === '' ? path.join(ROOT, file) : path.resolve(path.dirname(path.join(ROOT, file)), linkPath);
				if (!existsSync(resolved)) {
					broken.push(`${file}: ${target} (no such file)`);
				} else if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
					broken.push(`${file}: ${target} (no such heading)`);
				}
			}
		}
		expect(broken).toEqual([]);
	});

	it('start each docs page with a summary line and a link back to the index', () => {
		const missing = pages()
			.filter((file) => file !== README)
			.filter((file) => {
				const text = readFileSync(path.join(ROOT, file), 'utf8');
				// ../README.md from the guide, ../../README.md from docs/internals/.
				return !text.includes(`](${path.posix.relative(path.posix.dirname(file), README)}#documentation)`);
			});
		expect(missing).toEqual([]);
	});
});

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(file: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	let inFence = false;
	for (const line of readFileSync(file, 'utf8').split('\n')) {
		if (FENCE.test(line)) inFence = !inFence;
		const heading = !inFence && /^#{1,6}\s+(.*)$/.exec(line);
		if (!heading) continue;
		const slug = heading[1]!
			.trim()
			.toLowerCase()
			.replace(/[^\p{L}\p{N}\s_-]/gu, '')
			.replace(/\s/g, '-');
		const count = seen.get(slug) ?? 0;
		seen.set(slug, count + 1);
		anchors.add(count === 0 ? slug : `${slug}-${count}`);
	}
	return anchors;
}

describe('docs examples', () => {
	let scratch: Awaited<ReturnType<typeof tempDir>>;
	let env: NodeJS.ProcessEnv;
	let redis: TestRedis | undefined;

	beforeAll(async () => {
		scratch = await tempDir('revisit-docs-');
		// A `revisit` on PATH that is this checkout's build, as `npm link` would give.
		const bin = path.join(scratch.dir, 'bin');
		await mkdir(bin);
		await writeFile(path.join(bin, 'revisit'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
		await chmod(path.join(bin, 'revisit'), 0o755);
		env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
		// Examples use the default store, ./.revisit, in their own directory.
		delete env.REVISIT_STORE;
		// Run as users run them: robots.txt obeyed (vitest.config.ts ignores it for the
		// other suites). The docs site serves one; a down host's robots.txt fails as it would.
		delete env.REVISIT_ROBOTS;
		delete env.REVISIT_WEBHOOK_SECRET;
	});

	afterAll(async () => {
		await redis?.stop();
		await scratch?.cleanup();
	});

	// it.for, not it.each: only it.for hands the test its context, which skip() needs.
	it.for(BLOCKS.map((block) => [block.where, block] as const))('%s', { timeout: 90_000 }, async ([, block], context) => {
		const missing = block.needs.filter((tool) => !onPath(tool));
		// CI installs no jq or curl; such a block is reported as skipped, not passed.
		if (missing.length > 0) return context.skip(`needs ${missing.join(', ')}`);
		// A site of its own, so that what a block prints does not hang on the blocks before it
		// (/item/8's price, /news's comment count).
		const site = await startDocsSite();
		context.onTestFinished(() => site.close());
		const blockEnv: NodeJS.ProcessEnv = { ...env, SITE: site.origin };
		if (block.needs.includes('redis')) {
			// Started on first use, so a run without Redis blocks starts no server; emptied
			// per block, as each LevelDB example gets an empty directory.
			redis ??= await startRedis();
			await redis.cli(['FLUSHALL']);
			blockEnv.REDIS = `redis://127.0.0.1:${redis.port}`;
		}
		const dir = path.join(scratch.dir, block.where.replace(/[^A-Za-z0-9]+/g, '_'));
		const work = path.join(dir, 'work');
		await mkdir(work, { recursive: true });
		const script = path.join(dir, block.language === 'js' ? 'example.mjs' : 'example.sh');
		await writeFile(script, block.script);
		// `import ... from 'revisit'` finds this checkout, as after `npm install revisit`.
		await mkdir(path.join(dir, 'node_modules'));
		await symlink(ROOT, path.join(dir, 'node_modules', 'revisit'), 'dir');
		await writeFile(path.join(work, 'urls.txt'), URLS_TXT.map((page) => site.url(page)).join('\n') + '\n');

		const [command, check, args] =
			block.language === 'js' ? [process.execPath, ['--check', script], [script]] : ['bash', ['-n', script], ['-e', '-o', 'pipefail', script]];
		const syntax = await run(command, check, work, blockEnv);
		expect(syntax.status, `${block.where}: ${path.basename(command)} ${check[0]} says\n${syntax.stderr}`).toBe(0);

		const ran = await run(command, args, work, blockEnv);
		expect(ran.status, `${block.where}: exit ${ran.status}, expected ${block.exit}\n--- stdout\n${tail(ran.stdout)}\n--- stderr\n${tail(ran.stderr)}`).toBe(
			block.exit,
		);
		if (block.prints) {
			const lines = (text: string) => (block.prints!.unordered ? text.split('\n').sort().join('\n') : text);
			const printed = ran.stdout.replaceAll(blockEnv.SITE!, '$SITE');
			expect(lines(printed), `${block.where}: its stdout, against the \`text prints\` block after it\n--- stderr\n${tail(ran.stderr)}`).toBe(
				lines(block.prints.text),
			);
		}
	});
});
