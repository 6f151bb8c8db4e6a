import { readFileSync } from 'node:fs';
import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { GROUP } from '../../src/config/groups.js';
import { envValues, optionHints, optionsOf, setting, stageProperties } from '../../src/config/setting-row.js';
import { sweepSettings } from '../../src/config/settings.js';
import { integerValue } from '../../src/config/values.js';
import { groupedFlags } from '../../src/cli/flags/groups.js';
import { flagsOf } from '../../src/cli/flags/setting.js';
import { missingFromTables } from '../helpers/options-table.js';

// A setting added as docs/internals/2-development.md shows: one row, nothing else.
const table = {
	...sweepSettings,
	'max-redirects': setting({
		group: GROUP.requests,
		doc: 'Redirects followed before the URL is an error',
		default: 5,
		parse: integerValue('max-redirects', 0),
		stage: 'probe',
		schema: { type: 'integer', minimum: 0 },
		option: 'maxRedirects',
	}),
	'redirect-wait': setting({
		group: GROUP.politeness,
		doc: 'Seconds between a redirect and the request it names',
		default: 0.5,
		parse: (value: unknown) => Number(value),
		env: 'REVISIT_REDIRECT_WAIT',
		stage: 'probe',
		schema: { type: 'number', minimum: 0 },
		option: 'redirectWaitMs',
		unit: 'seconds',
	}),
};

describe('a settings table: a setting added as one row', () => {
	it('is a flag, under its heading, with its default and check', async () => {
		const parse = (args: string[]) => groupedFlags(yargs(args).exitProcess(false).fail(false).strict(), flagsOf(table)).parse();
		expect(parse(['--max-redirects', '3'])).toMatchObject({ 'max-redirects': 3, 'redirect-wait': 0.5 });
		await expect(async () => parse(['--max-redirects', 'many'])).rejects.toThrow('--max-redirects must be an integer >= 0 (got "many")');
		let help = '';
		await groupedFlags(yargs(['--help']).exitProcess(false).wrap(null), flagsOf(table)).parse(['--help'], {}, (_error, _argv, output) => {
			help = output;
		});
		expect(help.slice(help.indexOf('Requests:'), help.indexOf('Politeness and access:'))).toMatch(
			/--max-redirects +Redirects followed before the URL is an error +\[default: 5\]/,
		);
		expect(help.slice(help.indexOf('Politeness and access:'))).toContain('--redirect-wait');
	});

	it('is a stage option of the pipeline schema, in camelCase, with its default and doc', () => {
		expect(stageProperties(table, 'probe')['maxRedirects' as never]).toEqual({
			type: 'integer',
			minimum: 0,
			default: 5,
			description: 'Redirects followed before the URL is an error',
		});
		expect(Object.keys(stageProperties(table, 'due'))).not.toContain('maxRedirects');
	});

	it('is a library option, converted by its unit, with a hint for the names a user writes', () => {
		expect(optionsOf(table, { 'max-redirects': 3, 'redirect-wait': 1.5, timeout: 2 })).toEqual({ maxRedirects: 3, redirectWaitMs: 1500, timeoutMs: 2000 });
		expect(optionHints(table)['redirectWait']).toBe('did you mean `redirectWaitMs` (milliseconds; --redirect-wait is in seconds)?');
		expect(optionHints(table)['maxRedirects']).toBeUndefined();
	});

	it('takes its default from its environment variable, read from the environment given', () => {
		expect(envValues(table, { REVISIT_REDIRECT_WAIT: '2', REVISIT_ROBOTS: 'ignore', REVISIT_NOW: ' ' })).toEqual({ 'redirect-wait': 2, robots: 'ignore' });
		expect(() => envValues(table, { REVISIT_ROBOTS: 'never' })).toThrow('--robots (or $REVISIT_ROBOTS) must be obey or ignore (got "never")');
	});

	it('is missing from the docs options table until a line is added there', () => {
		const usage = readFileSync(new URL('../../docs/1-usage.md', import.meta.url), 'utf8');
		expect(missingFromTables(table, usage)).toEqual(['max-redirects', 'redirect-wait']);
		const added = usage
			.replace('### Requests\n\n| option | default | meaning |\n|---|---|---|\n', '$&| `--max-redirects N` | 5 | redirects followed |\n')
			.replace('### Politeness and access\n\n| option | default | meaning |\n|---|---|---|\n', '$&| `--redirect-wait S` | 0.5 | wait |\n');
		expect(missingFromTables(table, added)).toEqual([]);
	});
});
