import { GROUP, type Flag } from './groups.js';
import { UsageError } from '../../errors/index.js';
import { integerValue } from '../../config/values.js';
import type { FeedsOutput } from '../../pipelines/compose.js';

/** Parsed `--atom` and `--webhook` flags of sweep, fetch and crawl. */
export interface FeedFlags {
	atom?: string;
	'atom-max': number;
	webhook?: string;
	'webhook-secret'?: string;
	'webhook-batch': number;
	'feed-new': boolean;
}

const httpUrl = (value: unknown): string | undefined => {
	if (value === undefined) return undefined;
	if (!URL.canParse(String(value)) || !/^https?:$/.test(new URL(String(value)).protocol)) throw new UsageError(`--webhook must be an http(s) URL (got ${JSON.stringify(value)})`);
	return String(value);
};

/** Telling people: an Atom feed file, a webhook. */
export const feedFlagOptions: Record<keyof FeedFlags, Flag> = {
	atom: { group: GROUP.feeds, type: 'string', requiresArg: true, describe: 'Keep an Atom feed of the changes in this file (newest first; with --diff, each entry carries the diff)' },
	'atom-max': { group: GROUP.feeds, requiresArg: true, default: 200, coerce: integerValue('atom-max', 1), describe: 'Entries the Atom feed keeps' },
	webhook: { group: GROUP.feeds, type: 'string', requiresArg: true, coerce: httpUrl, describe: 'POST each change as JSON to this URL; a change is committed only once delivered' },
	'webhook-secret': { group: GROUP.feeds, type: 'string', requiresArg: true, describe: 'Sign webhook bodies: X-Revisit-Signature: sha256=HMAC [default: $REVISIT_WEBHOOK_SECRET]' },
	'webhook-batch': { group: GROUP.feeds, requiresArg: true, default: 1, coerce: integerValue('webhook-batch', 1), describe: 'Changes per webhook POST' },
	'feed-new': { group: GROUP.feeds, type: 'boolean', default: false, describe: "Let the Atom feed and the webhook also carry a URL's first sighting (reason new); off, a new store's first run does not flood them" },
};

/**
 * The run's feeds from the flags; the webhook secret defaults to $REVISIT_WEBHOOK_SECRET.
 *
 * @example
 * feedsFrom(args, process.env) // { atom: { path: 'changes.atom', max: 200 }, webhook: undefined }
 */
export function feedsFrom(flags: FeedFlags, env: NodeJS.ProcessEnv): FeedsOutput {
	return {
		atom: flags.atom === undefined ? undefined : { path: flags.atom, max: flags['atom-max'], new: flags['feed-new'] },
		webhook: flags.webhook === undefined ? undefined : { url: flags.webhook, secret: flags['webhook-secret'] ?? env['REVISIT_WEBHOOK_SECRET'], batch: flags['webhook-batch'], new: flags['feed-new'] },
	};
}
