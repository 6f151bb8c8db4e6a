import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { UsageError } from '../../base/errors/index.js';
import { typedCommand } from '../flags/groups.js';
import type { CliIo } from '../io.js';
import type { CommandResult } from '../shared/result.js';

/**
 * `revisit warc-index FILE…`: a CDXJ index (`surt timestamp {json}`, one line per
 * response and revisit record) of WARC files, as pywb and other replay tools read it.
 * The indexing is webrecorder's warcio (CDXIndexer), the same code as `warcio index`,
 * loaded only by this command.
 */
export function warcIndexCommand(io: CliIo, result: CommandResult) {
	return typedCommand({
		command: 'warc-index <files..>',
		describe: 'Print a CDXJ index of WARC files (what replay tools such as pywb read)',
		builder: (yargs) =>
			yargs
				.positional('files', { type: 'string', array: true, demandOption: true, describe: 'WARC files (.warc or .warc.gz)' })
				.example('revisit warc-index nightly-*.warc.gz | sort > index.cdxj', 'Index a set of WARCs, sorted for lookups'),
		handler: async (args) => {
			for (const file of args.files) {
				await access(file).catch(() => {
					throw new UsageError(`cannot read WARC file ${file}`);
				});
			}
			const { CDXIndexer } = await import('warcio');
			const indexer = new CDXIndexer({ format: 'cdxj' });
			const files = args.files.map((file) => ({ filename: file.split('/').pop()!, reader: createReadStream(file) }));
			await indexer.writeAll(files, io.stdout as unknown as NodeJS.WriteStream);
			result.status = 0;
		},
	});
}
