import { describe, expect, it } from 'vitest';
import { fetchDefaults } from '../../src/config/defaults.js';
import { sweepDefaults } from '../../src/pipelines/sweep-defaults.js';
import { crawlSettings, sweepSettings } from '../../src/config/settings.js';
import { ruleSettings } from '../../src/cli/flags/rules.js';
import { pipelineSchema } from '../../src/config/schema.js';
import { normaliseSweepOptions } from '../../src/pipelines/normalise-options.js';
import { sweepOptionsFrom } from '../../src/pipelines/options-from-settings.js';
import type { SweepSettings } from '../../src/config/settings.js';

/** Every setting at its default, checked as a flag or a pipeline file would. */
const defaults = () =>
	Object.fromEntries(
		Object.entries(sweepSettings as Record<string, { default?: unknown; parse?: (value: unknown) => unknown }>).map(([name, setting]) => [
			name,
			setting.default === undefined || !setting.parse ? setting.default : setting.parse(setting.default),
		]),
	) as unknown as SweepSettings;

describe('settings: the defaults and checks flags and pipeline files share', () => {
	it('give the library defaults when every setting is left at its default', () => {
		expect(normaliseSweepOptions(sweepOptionsFrom(defaults()))).toEqual(normaliseSweepOptions());
	});

	it('write durations and sizes as a user would, and mean the defaults in ms and bytes', () => {
		expect(sweepSettings['min-interval'].parse!(sweepSettings['min-interval'].default)).toBe(sweepDefaults.minIntervalMs);
		expect(sweepSettings['max-interval'].parse!(sweepSettings['max-interval'].default)).toBe(sweepDefaults.maxIntervalMs);
		expect(sweepSettings['verify-every'].parse!(sweepSettings['verify-every'].default)).toBe(sweepDefaults.trust.verifyEveryMs);
		expect(sweepSettings['max-body'].parse!(sweepSettings['max-body'].default)).toBe(sweepDefaults.maxBodyBytes);
		expect(crawlSettings['fetch-concurrency'].default).toBe(fetchDefaults.concurrency);
	});

	it("name the flag in a bad value's message", () => {
		expect(() => sweepSettings.concurrency.parse!('0')).toThrow('--concurrency must be an integer >= 1 (got "0")');
		expect(() => sweepSettings['max-body'].parse!('lots')).toThrow('--max-body must be a size');
		expect(() => sweepSettings['verify-every'].parse!('soon')).toThrow('--verify-every must be a duration');
		expect(() => ruleSettings.exclude.parse!(['.ts', '.price['])).toThrow(
			'--exclude ".price[" is not a CSS selector: Expected name, found the end of the selector',
		);
		expect(() => ruleSettings.select.parse!(['a:nope'])).toThrow('--select "a:nope" is not a CSS selector: Unknown pseudo-class :nope');
		expect(ruleSettings.exclude.parse!(['.ts', '#recent li'])).toEqual(['.ts', '#recent li']);
	});

	it('are the defaults the pipeline schema documents', () => {
		const probe = (pipelineSchema.properties.stages.items.oneOf as readonly { properties: Record<string, { const?: string; default?: unknown }> }[]).find(
			(stage) => stage.properties['use']?.const === 'probe',
		);
		expect(probe?.properties['concurrency']?.default).toBe(sweepDefaults.concurrency);
		expect(probe?.properties['timeout']?.default).toBe(sweepDefaults.timeoutMs / 1000);
	});
});
