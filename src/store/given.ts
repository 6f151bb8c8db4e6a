import { UsageError } from '../base/errors/index.js';
import { openStore, type OpenStoreOptions } from './open.js';
import type { StoreReader, ValidatorStore } from './model/types.js';

/**
 * What a function that uses a store takes: a LevelDB directory or a Redis URL, which it
 * opens and closes itself, or a store the caller opened (`openStore`, `new MemoryStore()`),
 * which it uses and leaves open.
 */
export type StoreInput<S extends StoreReader = ValidatorStore> = string | S;

// Members every backend that writes has (store/model/types.ts); a value lacking one is not a
// store, and would otherwise fail later as "store.getVersions is not a function".
const MEMBERS = ['getMany', 'getHosts', 'batch', 'entries', 'getTexts', 'getVersions', 'close'] as const;
// What a read needs: a watch's store read through its socket has these and no `batch`.
const READ_MEMBERS = ['getMany', 'getHosts', 'entries', 'getTexts', 'getVersions', 'close'] as const;

/**
 * `given` if it is a store spec (a non-empty string) or an opened store; a UsageError
 * (code USAGE) naming `name` and what it got otherwise.
 *
 * @example
 * const store = checkedStore(options.store); // 'a string' or a ValidatorStore, or it throws
 */
export function checkedStore<S extends StoreReader = ValidatorStore>(
	given: unknown,
	name = 'store',
	members: readonly (keyof ValidatorStore)[] = MEMBERS,
): StoreInput<S> {
	if (typeof given === 'string') {
		// Said so that it reads for --store as well as for the library's option.
		if (given === '') throw new UsageError(`\`${name}\` is empty: give a store directory or a redis:// URL`, { help: false });
		return given;
	}
	if (typeof given === 'object' && given !== null) {
		const missing = members.filter((member) => typeof (given as Record<string, unknown>)[member] !== 'function');
		if (missing.length === 0) return given as S;
		throw new UsageError(`${WANTED(name)}; got an object without ${missing.map((member) => `${member}()`).join(', ')}`, { help: false });
	}
	throw new UsageError(`${WANTED(name)}; got ${shown(given)}`, { help: false });
}

const WANTED = (name: string): string => `\`${name}\` must be a store directory, a redis:// URL or an opened store (openStore(dir))`;

function shown(value: unknown): string {
	return value === null || ['number', 'boolean', 'undefined'].includes(typeof value) ? String(value) : `a ${typeof value}`;
}

/**
 * `given` if it is an opened store with the members a stage uses; a UsageError (code USAGE)
 * otherwise. A stage takes no spec: the run's stages share one store, which one open holds.
 *
 * @example
 * openedStore(store, ['getMany']); // in stages/lookup.ts
 */
export function openedStore<S extends StoreReader = ValidatorStore>(given: unknown, members: readonly (keyof ValidatorStore)[], name = 'store'): S {
	if (typeof given === 'string')
		throw new UsageError(`\`${name}\`: a stage takes an opened store (openStore(${JSON.stringify(given)})), not a spec: the run's stages share one`, {
			help: false,
		});
	return checkedStore<S>(given, name, members) as S;
}

/**
 * Runs `work` on the store given: a spec is opened with `options` and closed when `work`
 * settles, an opened store is used as it is and left open for its owner.
 *
 * @example
 * const versions = await withGivenStore('.revisit', { create: false, viaWatch: true }, (store) => pageVersions(store, url));
 */
export async function withGivenStore<T>(given: StoreInput<StoreReader>, options: OpenStoreOptions, work: (store: StoreReader) => Promise<T>): Promise<T> {
	const checked = checkedStore<StoreReader>(given, 'store', READ_MEMBERS);
	if (typeof checked !== 'string') return work(checked);
	const store = await openStore(checked, options);
	try {
		return await work(store);
	} finally {
		await store.close();
	}
}
