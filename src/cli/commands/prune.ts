import { UsageError } from '../../base/errors/index.js';
import { pruneStore } from '../../store/prune.js';
import { counted } from '../../base/util/counted.js';
import { formatDuration, parseDuration } from '../../base/util/duration.js';
import { typedCommand } from '../flags/groups.js';
import type { CliIo } from '../io.js';
import type { CommandResult } from '../shared/result.js';
import { storeOption, withStore } from '../shared/store-option.js';

const PRUNE_EPILOG = `A URL record is pruned when its last successful check (lastChecked) is older than
DURATION, unless a later check is already scheduled for it (--ttl / --adaptive keep a
next-due time; such a URL is pruned once it is overdue and still old). Host rows that no
URL record refers to any more go too, except those with a mode set by hand (revisit
hosts set). Run history is kept. A pruned URL that is swept again is reported as new.
Deletes are written in batches while the store is read, so it stays fast and bounded in
memory on millions of records. Prints one summary line on stderr.`;

/** `revisit prune --older-than D`: forget URLs not checked for D, and hosts left without URLs. */
export function pruneCommand(io: CliIo, result: CommandResult) {
	return typedCommand({
		command: 'prune',
		describe: 'Delete URL records not checked for a while, and hosts left without URLs',
		builder: (yargs) =>
			storeOption(yargs, io.env)
				.options({
					'older-than': {
						requiresArg: true,
						demandOption: 'give --older-than DURATION, e.g. --older-than 30d',
						coerce: (value: unknown) => {
							const ms = parseDuration(String(value));
							if (ms === undefined) throw new UsageError(`--older-than must be a duration such as 30m, 6h or 2d (got ${JSON.stringify(value)})`);
							return ms;
						},
						describe: 'Prune URLs last checked longer ago than this (30m, 6h, 2d, 4w)',
					},
					'dry-run': { type: 'boolean', default: false, describe: 'Count what would be pruned; change nothing' },
				})
				.example('revisit prune --older-than 30d --dry-run', 'How many URLs were not checked for 30 days')
				.example('revisit prune --older-than 30d', 'Forget them, and hosts left without URLs')
				.epilog(PRUNE_EPILOG),
		handler: async (args) => {
			const olderThan = args['older-than'];
			if (typeof olderThan !== 'number') throw new UsageError('--older-than must be a duration such as 30m, 6h or 2d');
			const now = Date.now();
			const before = now - olderThan;
			await withStore(args.store, { create: false }, async (store) => {
				const pruned = await pruneStore(store, { before, now, dryRun: args['dry-run'] });
				const cutoff = `${new Date(before).toISOString().slice(0, 19).replace('T', ' ')}Z`;
				const overrides = pruned.keptOverrides > 0 ? `, ${pruned.keptOverrides} of them without URLs but with a mode set by hand` : '';
				io.stderr.write(
					`revisit: ${args['dry-run'] ? 'would prune' : 'pruned'} ${counted(pruned.urls, 'URL record')} and ${counted(pruned.hosts, 'host')}` +
						(` (not checked for ${formatDuration(olderThan)}, since ${cutoff}); kept ${counted(pruned.keptUrls, 'URL record')} and ` +
							`${counted(pruned.keptHosts, 'host')}${overrides}${freed(pruned)}\n`),
				);
				result.status = 0;
			});
		},
	});
}

/** What a prune freed of kept text, if anything: `; freed 3 kept texts and 2 version logs`. */
function freed(pruned: { texts: number; versions?: number | undefined }): string {
	const parts = [pruned.texts > 0 ? counted(pruned.texts, 'kept text') : '', (pruned.versions ?? 0) > 0 ? counted(pruned.versions!, 'version log') : ''].filter(
		Boolean,
	);
	return parts.length > 0 ? `; freed ${parts.join(' and ')}` : '';
}
