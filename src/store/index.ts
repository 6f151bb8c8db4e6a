export type {
	UrlRecord,
	HostRecord,
	HostMode,
	RunRecord,
	RunHostFigures,
	StoreOperation,
	ValidatorStore,
	StoreReader,
	StoreWriter,
	StoreScheduler,
	HostOverrides,
	WatchedStore,
} from './model/types.js';
export { RECORD_VERSION } from './model/types.js';
export { MemoryStore } from './level/memory.js';
export { LevelStore } from './level/store.js';
export { openStore, storeIsShared, describeStore, type OpenStoreOptions } from './open.js';
export { checkedStore, withGivenStore, type StoreInput } from './given.js';
export type { RedisTimeouts } from './redis/policy.js';
