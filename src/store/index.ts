export type { UrlRecord, HostRecord, HostMode, RunRecord, RunHostFigures, StoreOperation, ValidatorStore } from './types.js';
export { RECORD_VERSION } from './types.js';
export { MemoryStore } from './memory.js';
export { LevelStore } from './level.js';
export { openStore, storeIsShared, describeStore, type OpenStoreOptions } from './open.js';
export { checkedStore, withGivenStore, type StoreInput } from './given.js';
export type { RedisTimeouts } from './redis-policy.js';
