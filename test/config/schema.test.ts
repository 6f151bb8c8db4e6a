import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { crawlFlagOptions } from '../../src/cli/flags/crawl.js';
import { schemaText } from '../../src/cli/commands/schema.js';
import { sweepFlagOptions } from '../../src/cli/flags/sweep.js';
import { FORMATS } from '../../src/config/formats.js';
import { sweepSettings, watchSettings } from '../../src/config/settings.js';
import { keyOf } from '../../src/config/setting-row.js';
import { OPTION_STAGE } from '../../src/config/overrides.js';
import { pipelineSchema, STAGE_ORDER } from '../../src/config/schema.js';
import { validatePipeline } from '../../src/config/validate.js';
import { compilePipeline } from '../../src/pipelines/config.js';
import { fetchDefaults } from '../../src/pipelines/fetch.js';
import { sweepDefaults } from '../../src/pipelines/sweep-defaults.js';
import { checkOptionsOf } from '../../src/pipelines/sweep-options.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const camel = (flag: string) => flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
const minimal = { source: { type: 'stdin' }, sinks: [{ type: 'stdout' }] } as const;

describe('pipeline schema', () => {
	it('is shipped as config/pipeline.schema.json, byte for byte (npm run schema rewrites it)', async () => {
		expect(await readFile(path.join(ROOT, 'config/pipeline.schema.json'), 'utf8')).toBe(schemaText());
	});

	it('compiles in Ajv strict mode', () => {
		const ajv = new Ajv({ strict: true, allErrors: true, discriminator: true });
		for (const [name, format] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate: format.validate });
		expect(() => ajv.compile(pipelineSchema)).not.toThrow();
	});

	it('names every stage option as its CLI flag in camelCase, each option in one stage only', () => {
		// headers is --header (-H), repeated: a list in a file; rules are the rule flags (--select, --text, …) as a list.
		// --host-rate keeps the key a file always had, rate (its row's key).
		const flags = [
			...Object.entries(sweepSettings).map(([flag, row]) => keyOf(flag, row)),
			...[...Object.keys(crawlFlagOptions), 'candidates', 'headers', 'rules'].map(camel),
		].sort();
		const stageOptions = ['probe', 'due', 'compare', 'churn-guard', 'fetch'].flatMap((use) =>
			[...OPTION_STAGE].filter(([, stage]) => stage === use).map(([name]) => name),
		);
		expect(stageOptions.sort()).toEqual(flags);
		const all = pipelineSchema.properties.stages.items.oneOf.flatMap((stage) => Object.keys(stage.properties).filter((key) => key !== 'use'));
		expect(new Set(all).size).toBe(all.length);
	});

	it("documents the CLI flags' defaults: each one, coerced like the flag, equals the flag's", () => {
		const defaults = pipelineSchema.properties.stages.items.oneOf.flatMap((stage) => Object.entries(stage.properties as Record<string, { default?: unknown }>));
		const table = { ...sweepFlagOptions, ...crawlFlagOptions } as Record<string, { default?: unknown; coerce?: (value: unknown) => unknown }>;
		let checked = 0;
		for (const [name, property] of defaults) {
			const flag = Object.keys(table).find((key) => camel(key) === name);
			if (!flag || !('default' in property)) continue;
			const coerce = table[flag]!.coerce ?? ((value: unknown) => value);
			expect(coerce(property.default), name).toEqual(coerce(table[flag]!.default));
			checked++;
		}
		expect(checked).toBeGreaterThanOrEqual(18);
	});

	it("compiles a minimal pipeline to exactly the sweep's defaults, and a fetch stage to the crawl's", () => {
		expect(compilePipeline(validatePipeline(minimal), { env: {} }).options).toEqual(sweepDefaults);
		const crawl = compilePipeline(validatePipeline({ ...minimal, stages: [{ use: 'fetch' }], sinks: [{ type: 'dir', path: 'pages' }] }), { env: {} }).crawl!;
		expect(crawl.sweep).toEqual({ ...sweepDefaults, candidates: true, applyNoise: true });
		expect(crawl.fetch).toMatchObject({ concurrency: fetchDefaults.concurrency, perHost: fetchDefaults.perHost });
	});

	it('maps options in CLI units, as the flags do', () => {
		const config = validatePipeline({
			...minimal,
			stages: [
				{ use: 'due', ttl: '6h', adaptive: true, minInterval: '2h', maxInterval: '7d' },
				{
					use: 'probe',
					concurrency: 8,
					perHost: 2,
					rate: 3,
					timeout: 1.5,
					retries: 0,
					maxRetryAfter: 5,
					method: 'auto',
					audit: 0,
					maxBody: '1MiB',
					candidates: true,
				},
				{ use: 'churn-guard', maxChurn: 0.5, churnMin: 5, acceptChurn: ['all'] },
			],
		});
		expect(compilePipeline(config).options).toMatchObject({
			ttlMs: 6 * 3_600_000,
			adaptive: true,
			minIntervalMs: 2 * 3_600_000,
			maxIntervalMs: 7 * 86_400_000,
			concurrency: 8,
			perHost: 2,
			rate: 3,
			timeoutMs: 1500,
			retries: 0,
			maxRetryAfterMs: 5000,
			method: 'auto',
			trust: { auditRate: 0 },
			maxBodyBytes: 1024 * 1024,
			candidates: true,
			maxChurn: 0.5,
			churnMin: 5,
			acceptChurn: 'all',
		});
	});

	it("takes the watch's settings by their flag names in camelCase, with the flags' defaults", () => {
		const properties = pipelineSchema.properties.watch.properties as Record<string, { default?: unknown }>;
		expect(Object.keys(properties).sort()).toEqual(Object.keys(watchSettings).map(camel).sort());
		for (const [flag, setting] of Object.entries(watchSettings)) expect(properties[camel(flag)]!.default, flag).toEqual(setting.default);
		expect(pipelineSchema.properties.mode.default).toBe('run');
	});

	it("compiles a watch-mode pipeline to the watch's settings in its units, and the options it shares with a sweep", () => {
		const config = validatePipeline({
			...minimal,
			mode: 'watch',
			stages: [
				{ use: 'due', minInterval: '10m' },
				{ use: 'probe', concurrency: 4 },
			],
			watch: { rate: '5000/h', hostRate: 2, until: '2d', timeScale: 60, listen: ':0' },
		});
		const compiled = compilePipeline(config);
		expect(compiled.watch).toEqual({
			checksPerDay: 120_000,
			rate: 2,
			until: { afterMs: 2 * 86_400_000 },
			timeScale: 60,
			sitemapEveryMs: 86_400_000,
			listen: { host: '', port: 0 },
			listenHosts: [],
			leaseMs: 600_000,
			statusEveryMs: 900_000,
		});
		// What the watch takes of the options: the parts it shares with a sweep, without the sweep's run schedule.
		const shared = checkOptionsOf(compiled.options);
		expect(shared).toMatchObject({ concurrency: 4, minIntervalMs: 600_000 });
		for (const key of ['ttlMs', 'adaptive', 'budget', 'hostBudget', 'maxChurn', 'churnMin', 'acceptChurn', 'localWorkers'])
			expect(shared, key).not.toHaveProperty(key);
		expect(compilePipeline(validatePipeline({ ...minimal, mode: 'watch' })).watch).toEqual({
			checksPerDay: 86_400,
			timeScale: 1,
			sitemapEveryMs: 86_400_000,
			leaseMs: 600_000,
			listenHosts: [],
			statusEveryMs: 900_000,
		});
		expect(compilePipeline(validatePipeline(minimal)).watch).toBeUndefined();
	});

	it('lists stages in the order they run', () => {
		expect(STAGE_ORDER).toEqual(['normalise', 'dedupe', 'filter', 'due', 'probe', 'compare', 'churn-guard', 'fetch']);
	});

	it('accepts every shipped example', async () => {
		const dir = path.join(ROOT, 'config/examples');
		const files = (await readdir(dir)).filter((file) => file.endsWith('.json'));
		expect(files.length).toBeGreaterThanOrEqual(4);
		expect(files).toContain('watch.json');
		for (const file of files) {
			const config = JSON.parse(await readFile(path.join(dir, file), 'utf8'));
			expect(() => compilePipeline(validatePipeline(config, { file })), file).not.toThrow();
		}
	});
});
