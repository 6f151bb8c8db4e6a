import type { CommandModule } from 'yargs';
import { UsageError } from '../../base/errors/index.js';
import { matchesHost } from '../../net/hosts/stats.js';
import { newHostRecord } from '../../net/hosts/record.js';
import type { HostRecord, StoreOperation } from '../../store/model/types.js';
import { typedCommand } from '../flags/groups.js';
import type { CliIo } from '../io.js';
import type { CommandResult } from '../shared/result.js';
import { storeOption, withStore } from '../shared/store-option.js';

const MODES = ['auto', 'conditional', 'hash-only', 'unconditional'] as const;

/**
 * `revisit hosts set HOST --mode M`: a hand override of a host's derived mode. `auto`
 * removes the override. A bare hostname applies to every stored origin of that host;
 * an origin (https://example.org) also works for a host not yet stored.
 */
export function hostsCommand(io: CliIo, result: CommandResult): CommandModule {
	const set = typedCommand({
		command: 'set <host>',
		describe: "Override a host's mode by hand (auto hands it back to measurement)",
		builder: (yargs) =>
			storeOption(yargs, io.env)
				.positional('host', { type: 'string', demandOption: true, describe: 'An origin (https://example.org) or a hostname' })
				.option('mode', { choices: MODES, demandOption: true, describe: 'auto | conditional | hash-only | unconditional' })
				.example('revisit hosts set https://shop.example --mode hash-only', 'Never send validators to this origin')
				.example('revisit hosts set shop.example --mode auto', 'Let revisit measure again'),
		handler: async (args) => {
			// During a watch the override goes through it, and its next checks of the host follow it.
			await withStore(args.store, { create: true, viaWatch: true }, async (store) => {
				const now = Date.now();
				const targets: Array<[string, HostRecord]> = [];
				for await (const [origin, record] of store.hostEntries()) {
					if (matchesHost(origin, args.host)) targets.push([origin, record]);
				}
				if (targets.length === 0) {
					if (!args.host.includes('://')) throw new UsageError(`no stored host is named ${args.host}; give an origin such as https://${args.host}`);
					let origin: string;
					try {
						origin = new URL(args.host).origin;
					} catch {
						throw new UsageError(`${JSON.stringify(args.host)} is not an origin such as https://example.org`);
					}
					targets.push([origin, newHostRecord(now)]);
				}
				const mode = args.mode === 'auto' ? undefined : args.mode;
				if ('overrideHosts' in store) {
					// Through a watch: it sets the override in its own view of each host.
					await store.overrideHosts(targets.map(([origin]) => [origin, mode]));
				} else {
					const operations: StoreOperation[] = targets.map(([origin, record]) => {
						const { override: _old, ...value }: HostRecord = record;
						return { type: 'putHost', key: origin, value: mode === undefined ? value : { ...value, override: mode } };
					});
					await store.batch(operations);
				}
				for (const [origin] of targets) io.stderr.write(`revisit: ${origin}: mode ${args.mode === 'auto' ? 'measured (auto)' : `set to ${args.mode}`}\n`);
				result.status = 0;
			});
		},
	});
	return {
		command: 'hosts <command>',
		describe: 'Manage per-host settings',
		builder: (yargs) => yargs.command(set).demandCommand(1, 'Name a hosts command: revisit hosts set HOST --mode MODE'),
		handler: () => {},
	};
}
