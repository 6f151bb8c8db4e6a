import type { CommandModule } from 'yargs';
import { UsageError } from '../../base/errors/index.js';
import { matchesHost } from '../../net/hosts/stats.js';
import { normaliseUrl } from '../../stages/normalise.js';
import type { StoreOperation, UrlRecord } from '../../store/model/types.js';
import { typedCommand } from '../flags/groups.js';
import type { CliIo } from '../io.js';
import type { CommandResult } from '../shared/result.js';
import { storeOption, withStore } from '../shared/store-option.js';

/**
 * `revisit noise forget URL|HOST`: drops the noise learned for one page, or for a host and
 * every page of it. The next run judges those pages under the noise that is left (a
 * page whose stored hash left out more is a `rebaseline` once), and learns again.
 */
export function noiseCommand(io: CliIo, result: CommandResult): CommandModule<object, object> {
	return {
		command: 'noise',
		describe: 'Work with learned noise (--learn-noise): revisit noise forget URL|HOST drops it',
		builder: (yargs) => yargs.command(forgetCommand(io, result)).demandCommand(1, 'Name a subcommand: revisit noise forget URL|HOST'),
		handler: () => {},
	};
}

function forgetCommand(io: CliIo, result: CommandResult) {
	return typedCommand({
		command: 'forget <target>',
		describe: 'Drop the noise learned for a page (a URL), or for a host and all its pages (an origin or hostname)',
		builder: (yargs) =>
			storeOption(yargs, io.env)
				.positional('target', { type: 'string', demandOption: true, describe: 'A URL, an origin (https://shop.example) or a hostname' })
				.example('revisit noise forget https://shop.example/item/7', "That page's learned noise")
				.example('revisit noise forget shop.example', "The host's and every page's"),
		handler: async (args) => {
			await withStore(args.store, { create: false }, async (store) => {
				const page = /^https?:\/\/[^/]+\/./i.test(args.target) ? normaliseUrl(args.target) : undefined;
				if (page && 'problem' in page) throw new UsageError(`not a URL: ${args.target}: ${page.problem}`);
				const operations: StoreOperation[] = [];
				let pages = 0;
				if (page) {
					const [record] = await store.getMany([page.url]);
					if (record && (record.learned || record.noise)) operations.push({ type: 'put', key: page.url, value: forget(record) });
				} else {
					for await (const [origin, host] of store.hostEntries()) {
						if (!matchesHost(origin, args.target.replace(/\/$/, '')) || host.noise === undefined) continue;
						const { noise: _noise, ...rest } = host;
						operations.push({ type: 'putHost', key: origin, value: rest });
					}
					for await (const [key, record] of store.entries()) {
						if ((record.learned || record.noise) && matchesHost(new URL(key).origin, args.target.replace(/\/$/, '')))
							operations.push({ type: 'put', key, value: forget(record) });
					}
				}
				pages = operations.filter((operation) => operation.type === 'put').length;
				if (operations.length > 0) await store.batch(operations);
				io.stderr.write(
					`revisit: forgot the learned noise of ${pages} page${pages === 1 ? '' : 's'}` +
						(page ? '' : ` and ${operations.length - pages} host${operations.length - pages === 1 ? '' : 's'}`) +
						`\n`,
				);
				result.status = 0;
			});
		},
	});
}

/** The record without its noise; its stored hash, taken without that noise, is marked so that the next run takes a new baseline instead of reporting it. */
function forget(record: UrlRecord): UrlRecord {
	const { learned: _learned, noise: _noise, ...rest } = record;
	if (rest.content) rest.content = { ...rest.content, rules: `${rest.content.rules}, noise forgotten` };
	return rest;
}
