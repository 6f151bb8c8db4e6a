import type { Attempt } from '../../http/request.js';
import type { WireSpec } from './wire.js';

/** What the coordinator posts to a `--local-workers` thread. */
export type ToThread = { type: 'attempt'; id: number; spec: WireSpec } | { type: 'cancel'; id: number };

/** What a thread posts back: one attempt's outcome (Buffers arrive as Uint8Arrays). */
export interface FromThread {
	id: number;
	attempt: Attempt;
}
