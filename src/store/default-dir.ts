/**
 * The store directory when none is given: `$REVISIT_STORE`, else `./.revisit`. The one
 * place the default lives, for the CLI's `--store` and the library alike.
 *
 * @example
 * defaultStoreDir({ REVISIT_STORE: '/var/lib/revisit' }) // '/var/lib/revisit'
 */
export function defaultStoreDir(env: NodeJS.ProcessEnv = process.env): string {
	return env.REVISIT_STORE ?? '.revisit';
}
