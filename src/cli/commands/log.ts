import { integerValue } from '../../config/integer-value.js';
import { formatVersionTable, versionRow } from '../../outputs/history/version-table.js';
import { typedCommand } from '../flags/groups.js';
import type { CliIo } from '../io.js';
import { createWriter } from '../terminal.js';
import { urlArgument, versionsOf } from '../shared/page-versions.js';
import type { CommandResult } from '../shared/result.js';
import { storeOption, withStore } from '../shared/store-option.js';
import { safeJson } from '../../base/util/visible.js';

const LOG_EPILOG = `One row per version of the page's counted text (its visible text, the content rule's
part, the offer), newest first. VERSION is the number revisit diff takes; it stays the
same when older versions are evicted (--keep-versions). FIRST SEEN is the check that
found this text; LAST CONFIRMED the last check that found it still the same. REASON is
why the check counted it a change (new, new-body, audit, price, availability, ...),
followed by ", held" where the run's --when held the change back: recorded as the page's
new baseline, never reported. WORDS are words added and removed against the version
before ("same text" where the change moved only the page's bytes); TEXT the text's size
("cut" where it was cut at --keep-text). On a product page OFFER is the price and
availability (its move from the version before), and VALIDATORS the ETag and
Last-Modified the server sent with it. Times are UTC.

--json writes JSON lines: one object per version, newest first, with url, n, firstSeen
and lastConfirmed (ISO 8601), reason, added, removed, bytes, and where known etag,
lastModified, product, cut, note (where only the bytes moved: "the text is the same; the
bytes changed: …"), held: true (held back by --when), and latest: true on the newest.

Exit status: 0 the versions were listed; 1 the URL is not in the store, or has no
version kept; 2 usage or store error. A store a running watch holds is read through it.`;

/** `revisit log URL`: one page's versions, newest first, as a table or JSON lines. */
export function logCommand(io: CliIo, result: CommandResult) {
	return typedCommand({
		command: 'log <url>',
		describe: "List one page's versions, newest first: when each was seen, why, words added and removed, validators, offer",
		builder: (yargs) =>
			storeOption(yargs, io.env)
				.positional('url', { type: 'string', demandOption: true, describe: 'The page, as it was swept' })
				.options({
					json: { type: 'boolean', default: false, describe: 'One JSON object per version, newest first, one per line' },
					last: {
						requiresArg: true,
						coerce: (value: unknown) => (value === undefined ? undefined : integerValue('last', 1)(value)),
						describe: 'Only the newest N versions',
					},
				})
				.example('revisit log https://shop.example/kettle', "The kettle page's versions: when, why, words changed, the price each had")
				.example('revisit log https://example.org/news --last 5', 'The last five changes')
				.example("revisit log https://example.org/news --json | jq -r 'select(.added > 50) | .n'", 'Versions that added more than 50 words')
				.example('revisit log URL; revisit diff URL 3 5', 'Find two versions, then see what changed between them')
				.epilog(LOG_EPILOG),
		handler: async (args) => {
			const url = urlArgument(args.url);
			const page = await withStore(args.store, { create: false, viaWatch: true }, (store) => versionsOf(store, url, args.store));
			if ('problem' in page) {
				io.stderr.write(`revisit: ${page.problem}\n`);
				result.status = 1;
				return;
			}
			const shown = args.last === undefined ? page.versions : page.versions.slice(0, args.last);
			const write = createWriter(io.stdout);
			if (args.json) await write(shown.map((version, i) => `${safeJson(versionRow(url, version, i === 0))}\n`).join(''));
			else await write(formatVersionTable(page.versions, shown.length));
			result.status = 0;
		},
	});
}
