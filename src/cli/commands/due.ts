import { lastValueFrom, tap } from 'rxjs';
import { dueList } from '../../pipelines/due-list.js';
import { clockFor } from '../../pipelines/resources.js';
import { envDefaults } from '../../pipelines/sweep-defaults.js';
import type { CliIo } from '../io.js';
import type { CommandResult } from '../shared/result.js';
import { sweepFlagOptions } from '../flags/sweep.js';
import { storeFlag, withStore } from '../shared/store-option.js';
import { GROUP, groupedFlags, typedCommand } from '../flags/groups.js';
import { createWriter } from '../terminal.js';
import { safeJson } from '../../base/util/visible.js';

/** `revisit due`: the stored URLs due for a sweep now, one per line, for `revisit due | revisit sweep`. */
export function dueCommand(io: CliIo, result: CommandResult) {
	return typedCommand({
		command: 'due',
		describe: 'List the stored URLs that the next run would check: due, not skipped by a trusted max-age, and (with --budget) within the budget',
		builder: (yargs) =>
			groupedFlags(yargs, {
				store: { ...storeFlag(io.env), group: GROUP.io },
				json: {
					group: GROUP.io,
					type: 'boolean',
					default: false,
					describe:
						'One JSON object per due URL: url, rate (changes/day), lastChecked, tier, ' +
						'value (days of freshness a check adds), later, and skip: "signal" where a trusted max-age skips it',
				},
				later: { group: GROUP.io, type: 'boolean', default: false, describe: 'List the due URLs the --budget leaves for a later run instead' },
				ttl: sweepFlagOptions.ttl,
				budget: sweepFlagOptions.budget,
				'host-budget': sweepFlagOptions['host-budget'],
				'verify-every': sweepFlagOptions['verify-every'],
				now: sweepFlagOptions.now,
			})
				.example('revisit due | revisit sweep --adaptive', 'A cron job that checks only what is due')
				.example('revisit due --ttl 6h | wc -l', 'How many URLs were last checked over 6 hours ago')
				.example('revisit due --budget 1000 --json | jq -c "{url, rate}"', "What a run with --budget 1000 would check, with each URL's change rate"),
		handler: async (args) => {
			const write = createWriter(io.stdout);
			// Each line is written as it comes, not awaited one by one (a queue of entries would
			// wait for each write: the budget's 100,000 chosen, all at once). The list waits
			// instead while stdout is full; the first write that fails says why (EPIPE: OUTPUT_CLOSED).
			let last: Promise<void> = Promise.resolve();
			let failed: { error: unknown } | undefined;
			const print = (text: string) => {
				last = write(text).catch((error: unknown) => {
					failed ??= { error };
				});
			};
			const settled = async () => {
				await last;
				if (failed) throw failed.error;
			};
			const ready = () => (failed || io.stdout.writableNeedDrain ? settled() : undefined);
			await withStore(args.store, { create: false, viaWatch: true }, async (store) => {
				const now = clockFor(args.now ?? envDefaults(io.env).now).now();
				const entries = dueList(store, {
					ttlMs: args.ttl,
					budget: args.budget,
					hostBudget: args['host-budget'],
					verifyEveryMs: args['verify-every'],
					now,
					ready,
				});
				await lastValueFrom(
					entries.pipe(
						tap((entry) => {
							if (args.json) print(`${safeJson(entry)}\n`);
							else if (entry.skip === undefined && entry.later === args.later) print(`${entry.url}\n`);
						}),
					),
					{ defaultValue: undefined },
				);
				await settled();
				result.status = 0;
			});
		},
	});
}
