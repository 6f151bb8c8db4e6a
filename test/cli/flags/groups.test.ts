import { readdirSync, readFileSync } from 'node:fs';
import yargs from 'yargs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { sweepSettings } from '../../../src/config/settings.js';
import { GROUP, groupedFlags, typedCommand, type ArgvOf, type FlagsFor } from '../../../src/cli/flags/groups.js';
import { flagsOf } from '../../../src/cli/flags/setting.js';

const src = new URL('../../../src/cli/', import.meta.url);

describe('a command typed by its flags', () => {
	it("hands its handler the values its flags' rows and definitions say", async () => {
		const typed: FlagsFor<{ out?: string }> = { out: { group: GROUP.io, type: 'string', describe: 'A directory' } };
		const builder = (argv: ReturnType<typeof yargs>) =>
			groupedFlags(argv.exitProcess(false).fail(false).strict(), {
				...flagsOf(sweepSettings),
				...typed,
				all: { group: GROUP.io, type: 'boolean', default: false, describe: 'Every URL' },
			});
		// What tsc checks: a row's checked value, a typed table's, a definition's, with no type written beside them.
		expectTypeOf<ArgvOf<ReturnType<typeof builder>>['timeout']>().toEqualTypeOf<number>();
		expectTypeOf<ArgvOf<ReturnType<typeof builder>>['method']>().toEqualTypeOf<'get' | 'head' | 'auto'>();
		expectTypeOf<ArgvOf<ReturnType<typeof builder>>['out']>().toEqualTypeOf<string | undefined>();
		expectTypeOf<ArgvOf<ReturnType<typeof builder>>['all']>().toEqualTypeOf<boolean>();
		const args = await builder(yargs(['--timeout', '2.5', '--method', 'head', '--out', 'pages', '--all'])).parse();
		expect(args).toMatchObject({ timeout: 2.5, method: 'head', out: 'pages', all: true });

		let seen: unknown;
		const command = typedCommand({
			command: 'try',
			describe: 'Try',
			builder: (argv) => groupedFlags(argv, { all: { group: GROUP.io, type: 'boolean', default: false, describe: 'Every URL' } }),
			handler: (given) => {
				expectTypeOf(given.all).toEqualTypeOf<boolean>();
				seen = given.all;
			},
		});
		await yargs(['try', '--all']).command(command).parse();
		expect(seen).toBe(true);
	});

	it('is written without a cast of its arguments in any command', () => {
		const casts = readdirSync(src, { recursive: true, encoding: 'utf8' })
			.filter((file) => file.endsWith('.ts'))
			.filter((file) => readFileSync(new URL(file, src), 'utf8').includes('as unknown as Argv'));
		expect(casts).toEqual([]);
	});
});
