import { expect, it } from 'vitest';
import type { HostOverrides, StoreReader, StoreScheduler, StoreWriter } from '../../src/store/model/types.js';

/**
 * What a backend can do, as abstract-level's `supports` manifest says it: each capability
 * is an interface of store/model/types.ts with its contract suite (`read`:
 * reader-contract.ts, `write`: writer-contract.ts, `schedule`: due-contract.ts,
 * `hostOverrides`: the cases in socket/store.test.ts, its one backend).
 */
export type Capability = 'read' | 'write' | 'schedule' | 'hostOverrides';

/** Each backend's capabilities: its test files run the suites of these, and `supportsContract` checks it has their members and no other's. */
export const SUPPORTS = {
	LevelStore: ['read', 'write', 'schedule'],
	MemoryStore: ['read', 'write', 'schedule'],
	RedisStore: ['read', 'write', 'schedule'],
	SocketStore: ['read', 'hostOverrides'],
} as const satisfies Record<string, readonly Capability[]>;

/** Each capability's members, true where required: Records, so that the compiler holds each list to its interface. */
const MEMBERS: {
	read: Record<keyof StoreReader, boolean>;
	write: Record<keyof StoreWriter, boolean>;
	schedule: Record<keyof StoreScheduler, boolean>;
	hostOverrides: Record<keyof HostOverrides, boolean>;
} = {
	read: {
		getMany: true,
		getHosts: true,
		entries: true,
		readPass: false,
		hostEntries: true,
		runEntries: true,
		getRunDetails: true,
		getTexts: true,
		textEntries: true,
		getVersions: true,
		versionEntries: true,
		deliveryEntries: true,
		close: true,
	},
	write: { batch: true },
	schedule: { dueQueue: true },
	hostOverrides: { overrideHosts: true },
};

/**
 * Checks a backend against its manifest: every required member of a capability it
 * supports is there, and no member of one it does not: a backend has no method only to
 * refuse it at run time.
 */
export function supportsContract(
	name: string,
	supports: readonly Capability[],
	open: () => Promise<{ store: { close(): Promise<void> }; cleanup(): Promise<void> }>,
): void {
	it(`${name} has the members of ${supports.join(', ')}, and of no other capability`, async () => {
		const { store, cleanup } = await open();
		try {
			const members = store as unknown as Record<string, unknown>;
			for (const [capability, names] of Object.entries(MEMBERS) as Array<[Capability, Record<string, boolean>]>) {
				for (const [member, required] of Object.entries(names)) {
					const has = typeof members[member] === 'function';
					if (!supports.includes(capability)) expect(has, `${name}.${member} (${capability}, which it does not support)`).toBe(false);
					else if (required) expect(has, `${name}.${member} (${capability})`).toBe(true);
				}
			}
		} finally {
			await store.close();
			await cleanup();
		}
	});
}
