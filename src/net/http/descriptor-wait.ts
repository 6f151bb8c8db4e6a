import { setTimeout as sleep } from 'node:timers/promises';
import type { Attempt } from './request.js';

/** The process (EMFILE) or the system (ENFILE) is out of file descriptors: no fault of the host. */
export const OUT_OF_DESCRIPTORS: ReadonlySet<string> = new Set(['EMFILE', 'ENFILE']);

/** The first pause after a failure for want of a descriptor, doubled each time up to MAX_PAUSE_MS. */
const FIRST_PAUSE_MS = 20;
const MAX_PAUSE_MS = 1000;

export interface DescriptorWait {
	/** How long the attempt may keep waiting for a descriptor, from its first try, in ms. */
	budgetMs: number;
	now: () => number;
	random: () => number;
	signal: AbortSignal;
}

/**
 * Runs `attempt` again, after a short and growing pause, while it fails only because no
 * descriptor was free to connect with. That says nothing about the URL, so it is waited
 * out like a full slot and not counted as one of the retries: the caller keeps its slot
 * meanwhile, which slows the run down until descriptors come free. Past `budgetMs` the
 * failure is returned as an ordinary retryable one.
 *
 * @example
 * const outcome = await waitForDescriptors(() => attemptRequest(client, 'GET', url, {}, signal, Date.now), {
 * 	budgetMs: 15000,
 * 	now: Date.now,
 * 	random: Math.random,
 * 	signal,
 * });
 */
export async function waitForDescriptors(attempt: () => Promise<Attempt>, wait: DescriptorWait): Promise<Attempt> {
	const deadline = wait.now() + wait.budgetMs;
	for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(2 * pause, MAX_PAUSE_MS)) {
		const outcome = await attempt();
		const code = outcome.result.error?.code;
		if (code === undefined || !OUT_OF_DESCRIPTORS.has(code)) return outcome;
		const left = deadline - wait.now();
		if (left <= 0) return { ...outcome, retryable: true };
		await sleep(Math.min(left, Math.round(pause * (0.5 + wait.random() / 2))), undefined, { signal: wait.signal });
	}
}
