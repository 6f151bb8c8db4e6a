import { describe, expect, it } from 'vitest';
import { checkOptionNames } from '../../src/pipelines/option-names.js';
import { sweepDefaults } from '../../src/pipelines/sweep-defaults.js';
import { OptionError } from '../../src/base/errors/index.js';

describe('checkOptionNames', () => {
	it('takes every option the sweep has', () => {
		expect(() =>
			checkOptionNames({
				...sweepDefaults,
				rate: 2,
				ttlMs: 1,
				budget: 1,
				hostBudget: 1,
				now: 0,
				rules: [],
				applyNoise: true,
				headers: [],
				proxy: undefined,
				cookies: 'c',
				cookieJar: 'j',
				robotsAgent: 'x',
			}),
		).not.toThrow();
	});

	it.each([
		[{ text: true }, /`text`: content rules go in `rules`/],
		[{ ignore: ['x'] }, /`ignore`: content rules go in `rules`/],
		[{ maxBody: 10 }, /`maxBody`: did you mean `maxBodyBytes`\?/],
		[{ 'max-crawl-delay': 10 }, /`max-crawl-delay`: did you mean `maxCrawlDelayMs` \(milliseconds\)\?/],
		[{ audit: 0.1 }, /`audit`: did you mean `trust: \{ auditRate \}`\?/],
		[{ concurency: 8 }, /`concurency`: did you mean `concurrency`\?/],
		[{ zzz: 1 }, /Unknown sweep option `zzz`: the options are concurrency, perHost, /],
	])('refuses %j, naming the option meant', (input, message) => {
		expect(() => checkOptionNames(input)).toThrow(OptionError);
		expect(() => checkOptionNames(input)).toThrow(message);
	});
});
