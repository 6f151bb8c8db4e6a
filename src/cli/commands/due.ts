import type { Argv, CommandModule } from 'yargs';
import { isDue } from '../../stages/due.js';
import type { CliIo } from '../io.js';
import type { CommandResult } from './result.js';
import { sweepFlagOptions } from '../flags/sweep.js';
import { storeOption, withStore } from './store-option.js';
import { createWriter } from '../terminal.js';

interface DueArgs {
	store: string;
	ttl?: number;
}

/** `revisit due`: the stored URLs due for a sweep now, one per line, for `revisit due | revisit sweep`. */
export function dueCommand(io: CliIo, result: CommandResult): CommandModule<object, DueArgs> {
	return {
		command: 'due',
		describe: 'List the stored URLs that are due for a check now',
		builder: (yargs) =>
			storeOption(yargs, io.env)
				.options({ ttl: sweepFlagOptions.ttl })
				.example('revisit due | revisit sweep --adaptive', 'A cron job that checks only what is due')
				.example('revisit due --ttl 6h | wc -l', 'How many URLs were last checked over 6 hours ago') as unknown as Argv<DueArgs>,
		handler: async (args) => {
			const write = createWriter(io.stdout);
			await withStore(args.store, { create: false }, async (store) => {
				const now = Date.now();
				for await (const [url, record] of store.entries()) {
					if (isDue(record, args.ttl, now)) await write(`${url}\n`);
				}
				result.status = 0;
			});
		},
	};
}
