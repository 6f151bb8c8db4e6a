import type { Argv, Options } from 'yargs';
import { openStore } from '../../store/open.js';
import type { ValidatorStore, WatchedStore } from '../../store/model/types.js';
import { defaultStoreDir } from '../../store/default-dir.js';

/** `--store DIR|URL`, defaulting to $REVISIT_STORE or ./.revisit; shared by every command that opens the store. */
export function storeOption<T>(yargs: Argv<T>, env: NodeJS.ProcessEnv) {
	return yargs.option('store', storeFlag(env));
}

/**
 * The `--store` flag's definition, for the commands that add it to a grouped flag table.
 *
 * @example
 * groupedFlags(yargs, { store: { ...storeFlag(io.env), group: GROUP.io }, ...sweepFlagOptions })
 */
export function storeFlag(env: NodeJS.ProcessEnv) {
	return {
		type: 'string',
		default: defaultStoreDir(env),
		defaultDescription: '$REVISIT_STORE or ./.revisit',
		describe:
			'Validator store: a LevelDB directory, or redis://[user:password@]host:port[/db][?prefix=NAME] (rediss:// for TLS; ' +
			'redis+cluster://host:port for a Redis Cluster)',
	} as const satisfies Options;
}

/**
 * Opens the store for one command, runs `work`, and closes it whatever happens. Commands
 * that only read (stats, history, due, report) pass `create: false`, so a mistyped
 * --store is an error rather than a new empty store, and `viaWatch`, so that a store a
 * running watch holds is read through the watch rather than refused as locked: `work` is
 * then given a WatchedStore in that case, so it takes the StoreReader it reads (or, to
 * write, tells the two apart).
 *
 * @example
 * await withStore(args.store, { create: false, viaWatch: true }, async (store) => { for await (const entry of store.entries()) ... });
 */
export function withStore<T>(
	spec: string,
	options: { create: boolean; viaWatch: true },
	work: (store: ValidatorStore | WatchedStore) => Promise<T>,
): Promise<T>;
export function withStore<T>(spec: string, options: { create: boolean; viaWatch?: false }, work: (store: ValidatorStore) => Promise<T>): Promise<T>;
export async function withStore<T>(
	spec: string,
	options: { create: boolean; viaWatch?: boolean },
	work: (store: ValidatorStore & WatchedStore) => Promise<T>,
): Promise<T> {
	const store = await openStore(spec, options);
	try {
		// openStore opens a WatchedStore only with viaWatch, which is the overload whose `work` takes one.
		return await work(store as ValidatorStore & WatchedStore);
	} finally {
		await store.close();
	}
}
