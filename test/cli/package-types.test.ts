import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The versions this checkout builds with, so that the npm cache that built it can serve them. */
const installed = (name: string): string =>
	(JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/** A TypeScript user's script: the library's entry points, the verdict and error types, and what they must refuse. */
const SCRIPT =
	`import { createPipeline, ERROR_CODES, REASONS, RevisitError, sweep, type ErrorCode, type Reason, type UrlErrorCode, ` +
	`type Verdict } from 'revisit';

const changed: string[] = [];
sweep(['https://example.org/'], { store: '.revisit', perHost: 2, timeoutMs: 5000, rules: [{ select: ['main'], text: true }] }).subscribe({
	next: (verdict: Verdict) => {
		const reason: Reason = verdict.reason;
		if (verdict.changed && reason !== 'gone') changed.push(verdict.url);
		const code: UrlErrorCode | undefined = verdict.error?.code;
		if (code === 'HTTP_503' || code === 'ECONNREFUSED') console.error(verdict.url, code);
	},
	error: (error: unknown) => {
		if (error instanceof RevisitError && error.code === 'STORE_LOCKED') console.error('another revisit has the store');
	},
});

const pipeline = createPipeline({ source: { type: 'stdin' }, stages: [{ use: 'probe', concurrency: 8 }], sinks: [{ type: 'stdout' }] });
pipeline.verdicts$.subscribe((verdict) => console.log(verdict.reason satisfies Reason));
const body: Buffer | undefined = undefined;
console.log(REASONS.length, ERROR_CODES.length, body);

// @ts-expect-error: not a reason
const wrongReason: Reason = 'changed';
// @ts-expect-error: not an error code
const wrongCode: ErrorCode = 'STORE_LOKED';
// @ts-expect-error: content rules are rules, not select
sweep([], { select: ['main'] });
console.log(wrongReason, wrongCode);
`;

const TSCONFIG = {
	compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, types: ['node'] },
	files: ['use.ts'],
};

function run(command: string, args: string[], cwd: string) {
	const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
	return { status: result.status ?? -1, output: `${result.stdout}${result.stderr}` };
}

const unreachable = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH|ECONNRESET|ENOTCACHED/;

describe('the packed package, compiled by a TypeScript user', () => {
	let work: { dir: string; cleanup(): Promise<void> };
	let project: string;
	let setup: { status: number; output: string };
	beforeAll(async () => {
		work = await tempDir('revisit-pack-');
		project = path.join(work.dir, 'project');
		await mkdir(project);
		if (!existsSync(path.join(ROOT, 'dist/index.d.ts'))) throw new Error('dist/ is missing: npm run build first');
		// --ignore-scripts: pack what `npm run build` left in dist/, without building again.
		const pack = run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work.dir], ROOT);
		expect(pack.status, pack.output).toBe(0);
		const tarball = path.join(work.dir, pack.output.trim().split('\n').at(-1)!);
		await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true, type: 'module' }));
		await writeFile(path.join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));
		await writeFile(path.join(project, 'use.ts'), SCRIPT);
		// Install scripts are skipped: only the types are needed, not LevelDB's binary.
		const install = [
			'install',
			'--no-audit',
			'--no-fund',
			'--ignore-scripts',
			tarball,
			`typescript@${installed('typescript')}`,
			`@types/node@${installed('@types/node')}`,
		];
		// From the npm cache when it holds everything (it did build this checkout), else from the registry.
		setup = run('npm', [...install, '--offline'], project);
		if (setup.status !== 0) setup = run('npm', [...install, '--prefer-offline'], project);
	}, 170_000);
	afterAll(() => work?.cleanup());

	const tsc = (config: string) => run(process.execPath, [path.join(project, 'node_modules/typescript/bin/tsc'), '-p', config], project);

	it('compiles a script using sweep(), createPipeline() and the verdict and error types with tsc --strict, set up as docs/15-library.md says', (context) => {
		if (setup.status !== 0 && unreachable.test(setup.output))
			return context.skip('the npm registry is unreachable and the npm cache lacks packages to install revisit in a fresh project');
		expect(setup.status, setup.output).toBe(0);
		const compiled = tsc('tsconfig.json');
		expect(compiled.output).toBe('');
		expect(compiled.status).toBe(0);
	}, 120_000);
});
