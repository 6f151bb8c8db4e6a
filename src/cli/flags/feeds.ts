import { GROUP } from './groups.js';
import { flagRow, type ValuesOf } from '../../config/setting-row.js';
import { flagsOf } from './setting.js';
import { UsageError } from '../../base/errors/index.js';
import { durationValue, integerValue } from '../../config/values.js';
import type { FeedsOutput } from '../../pipelines/compose.js';
import { checkTemplate, notifier, PLACEHOLDERS } from '../../io/notify/index.js';
import { shownUrl } from '../../base/util/shown-url.js';

const httpUrl = (value: unknown): string | undefined => {
	if (value === undefined) return undefined;
	if (!URL.canParse(String(value)) || !/^https?:$/.test(new URL(String(value)).protocol))
		throw new UsageError(`--webhook must be an http(s) URL (got ${JSON.stringify(shownUrl(String(value)))})`);
	return String(value);
};

/** Telling people: an Atom feed file, a webhook, notifications; one row each. */
export const feedSettings = {
	atom: flagRow({
		group: GROUP.feeds,
		doc: 'Keep an Atom feed of the changes in this file (newest first; with --diff, each entry carries the diff)',
		type: 'string',
	}),
	'atom-max': flagRow({ group: GROUP.feeds, doc: 'Entries the Atom feed keeps', default: 200, parse: integerValue('atom-max', 1) }),
	webhook: flagRow({
		group: GROUP.feeds,
		doc: 'POST each change as JSON to this URL; a change is kept in the store until delivered',
		type: 'string',
		parse: httpUrl,
	}),
	'webhook-secret': flagRow({
		group: GROUP.feeds,
		doc: 'Sign webhook bodies: X-Revisit-Signature: sha256=HMAC [default: $REVISIT_WEBHOOK_SECRET]',
		type: 'string',
	}),
	'webhook-batch': flagRow({ group: GROUP.feeds, doc: 'Changes per webhook POST', default: 1, parse: integerValue('webhook-batch', 1) }),
	'feed-new': flagRow({
		group: GROUP.feeds,
		doc:
			"Let the Atom feed, the webhook and the notifications also carry a URL's first sighting (reason new); off, a " +
			"new store's first run does not flood them",
		type: 'boolean',
		default: false,
	}),
	notify: flagRow({
		group: GROUP.feeds,
		doc:
			'Send a notification of each change to this apprise-style URL (repeatable): ' +
			'mailto://USER:PASS@HOST:PORT?to=ADDR (mailtos:// with TLS), ntfy://HOST/TOPIC, discord://ID/TOKEN, ' +
			'slack://A/B/C/#CHANNEL, tgram://BOT_TOKEN/CHAT_ID, matrix://USER:PASS@HOST/#ROOM, json://HOST/PATH; any other ' +
			'scheme through the apprise command. A change is kept in the store until delivered; secrets are never shown',
		type: 'string',
		default: [],
		parse: (value: unknown): string[] => (value === undefined ? [] : [value].flat().map(String)),
	}),
	'notify-template': flagRow({
		group: GROUP.feeds,
		doc:
			"The notification's body, e.g. '{url}: {previous_price} → {price} {currency}'; placeholders: " +
			`${PLACEHOLDERS.map((name) => `{${name}}`).join(' ')} [default: the URL, the reason, and what moved]`,
		type: 'string',
	}),
	'notify-apprise': flagRow({
		group: GROUP.feeds,
		doc: 'Send every --notify URL through the apprise command, also those revisit sends itself',
		type: 'boolean',
		default: false,
	}),
	'delivery-max-age': flagRow({
		group: GROUP.feeds,
		doc: 'How long a change waits in the store for a feed or notification target that is down before it is dropped (with a line on stderr)',
		default: '7d',
		parse: durationValue('delivery-max-age'),
	}),
};

/** Parsed `--atom`, `--webhook` and `--notify` flags of sweep, fetch, crawl and watch. */
export type FeedFlags = ValuesOf<typeof feedSettings>;

/** The feed flags, from their rows. */
export const feedFlagOptions = flagsOf(feedSettings);

/**
 * The run's feeds from the flags; the webhook secret defaults to $REVISIT_WEBHOOK_SECRET.
 * The notify URLs are parsed here, so that a malformed one stops the command before it
 * runs; those apprise sends are checked by its dry run when the run starts (`checkStart`).
 *
 * @example
 * feedsFrom(args, process.env) // { atom: { path: 'changes.atom', max: 200 }, webhook: undefined }
 */
export function feedsFrom(flags: FeedFlags, env: NodeJS.ProcessEnv): FeedsOutput {
	const urls = (flags.notify ?? []).map(String);
	// Checked now, before anything runs: a malformed URL, or one apprise must send where it is not installed, is a usage error.
	for (const url of urls) notifier(url, { apprise: flags['notify-apprise'], env });
	if (flags['notify-template'] !== undefined) checkTemplate(flags['notify-template']);
	if (urls.length === 0 && (flags['notify-template'] !== undefined || flags['notify-apprise']))
		throw new UsageError(`--${flags['notify-template'] !== undefined ? 'notify-template' : 'notify-apprise'} needs --notify URL`);
	return {
		atom: flags.atom === undefined ? undefined : { path: flags.atom, max: flags['atom-max'], new: flags['feed-new'] },
		webhook:
			flags.webhook === undefined
				? undefined
				: { url: flags.webhook, secret: flags['webhook-secret'] ?? env['REVISIT_WEBHOOK_SECRET'], batch: flags['webhook-batch'], new: flags['feed-new'] },
		notify:
			urls.length === 0
				? undefined
				: { urls, template: flags['notify-template'], apprise: flags['notify-apprise'], new: flags['feed-new'], env, label: '--notify' },
		deliveryMaxAgeMs: flags['delivery-max-age'],
	};
}
