import type { Argv } from 'yargs';

/** `--store DIR`, defaulting to $REVISIT_STORE or ./.revisit; shared by every command that opens the store. */
export function storeOption(yargs: Argv, env: NodeJS.ProcessEnv): Argv {
	return yargs.option('store', {
		type: 'string',
		default: env.REVISIT_STORE ?? '.revisit',
		defaultDescription: '$REVISIT_STORE or ./.revisit',
		describe: 'Validator store directory (LevelDB)',
	});
}
