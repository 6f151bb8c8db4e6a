import { StoreError } from '../../errors/index.js';
import type { RedisLink } from '../redis-link.js';
import type { DueQueue, QueueClock } from './types.js';

/** The watch schedule on Redis: not written yet. */
export const RedisDueQueue = {
	async open(_link: RedisLink, _prefix: string, _clock: QueueClock): Promise<DueQueue> {
		throw new StoreError('STORE_OPEN_FAILED', 'the watch schedule on Redis is not written yet');
	},
};
