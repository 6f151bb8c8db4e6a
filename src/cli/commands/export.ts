import { createInterface } from 'node:readline';
import { dumpStore, parseDumpLine } from '../../store/dump.js';
import { openStore } from '../../store/open.js';
import type { StoreOperation } from '../../store/model/types.js';
import { counted } from '../../base/util/counted.js';
import { typedCommand } from '../flags/groups.js';
import type { CliIo } from '../io.js';
import { createWriter } from '../terminal.js';
import type { CommandResult } from '../shared/result.js';
import { storeOption } from '../shared/store-option.js';
import { safeJson } from '../../base/util/visible.js';

/** `revisit export`: the whole store as NDJSON on stdout, for backups, inspection and moves. */
export function exportCommand(io: CliIo, result: CommandResult) {
	return typedCommand({
		command: 'export',
		describe: 'Dump the store as NDJSON (URL records, hosts, run history) on stdout',
		builder: (yargs) =>
			storeOption(yargs, io.env)
				.example('revisit export > backup.ndjson', 'Back the store up')
				.example('revisit export | jq -c \'select(.kind == "url") | .key\'', 'Every stored URL'),
		handler: async (args) => {
			// A store a running watch holds is exported through the watch, as it reads it.
			const store = await openStore(args.store, { viaWatch: true });
			const write = createWriter(io.stdout);
			try {
				for await (const line of dumpStore(store)) await write(`${safeJson(line)}\n`);
				result.status = 0;
			} finally {
				await store.close();
			}
		},
	});
}

/** `revisit import`: load an export (stdin) into a store, in batches; bad lines are named and skipped. */
export function importCommand(io: CliIo, result: CommandResult) {
	return typedCommand({
		command: 'import',
		describe: 'Load an NDJSON dump from stdin into the store (records with the same key are replaced)',
		builder: (yargs) => storeOption(yargs, io.env).example('revisit import --store .revisit-new < backup.ndjson', 'Restore a backup'),
		handler: async (args) => {
			const store = await openStore(args.store);
			let batch: StoreOperation[] = [];
			let loaded = 0;
			let bad = 0;
			try {
				let line = 0;
				for await (const raw of createInterface({ input: io.stdin, crlfDelay: Infinity })) {
					line++;
					const text = raw.trim();
					if (text === '') continue;
					const parsed = parseDumpLine(text);
					if (parsed.problem) {
						bad++;
						io.stderr.write(`revisit: line ${line}: ${parsed.problem}\n`);
					} else if (parsed.operation) {
						batch.push(parsed.operation);
						loaded++;
					}
					if (batch.length >= 1000) {
						await store.batch(batch);
						batch = [];
					}
				}
				await store.batch(batch);
			} finally {
				await store.close();
			}
			io.stderr.write(`revisit: imported ${counted(loaded, 'record')}${bad ? `, skipped ${counted(bad, 'bad line')}` : ''}\n`);
			result.status = bad > 0 ? 1 : 0;
		},
	});
}
