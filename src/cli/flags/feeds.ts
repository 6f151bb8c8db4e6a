import { GROUP, type FlagsFor } from './groups.js';
import { UsageError } from '../../base/errors/index.js';
import { durationValue, integerValue } from '../../config/values.js';
import type { FeedsOutput } from '../../pipelines/compose.js';
import { checkTemplate, notifier, PLACEHOLDERS } from '../../io/notify/index.js';
import { shownUrl } from '../../base/util/shown-url.js';

/** Parsed `--atom` and `--webhook` flags of sweep, fetch and crawl. */
export interface FeedFlags {
	atom?: string;
	'atom-max': number;
	webhook?: string;
	'webhook-secret'?: string;
	'webhook-batch': number;
	'feed-new': boolean;
	notify: string[];
	'notify-template'?: string;
	'notify-apprise': boolean;
	'delivery-max-age': number;
}

const httpUrl = (value: unknown): string | undefined => {
	if (value === undefined) return undefined;
	if (!URL.canParse(String(value)) || !/^https?:$/.test(new URL(String(value)).protocol))
		throw new UsageError(`--webhook must be an http(s) URL (got ${JSON.stringify(shownUrl(String(value)))})`);
	return String(value);
};

/** Telling people: an Atom feed file, a webhook, notifications. */
export const feedFlagOptions: FlagsFor<FeedFlags> = {
	atom: {
		group: GROUP.feeds,
		type: 'string',
		requiresArg: true,
		describe: 'Keep an Atom feed of the changes in this file (newest first; with --diff, each entry carries the diff)',
	},
	'atom-max': { group: GROUP.feeds, requiresArg: true, default: 200, coerce: integerValue('atom-max', 1), describe: 'Entries the Atom feed keeps' },
	webhook: {
		group: GROUP.feeds,
		type: 'string',
		requiresArg: true,
		coerce: httpUrl,
		describe: 'POST each change as JSON to this URL; a change is kept in the store until delivered',
	},
	'webhook-secret': {
		group: GROUP.feeds,
		type: 'string',
		requiresArg: true,
		describe: 'Sign webhook bodies: X-Revisit-Signature: sha256=HMAC [default: $REVISIT_WEBHOOK_SECRET]',
	},
	'webhook-batch': { group: GROUP.feeds, requiresArg: true, default: 1, coerce: integerValue('webhook-batch', 1), describe: 'Changes per webhook POST' },
	'feed-new': {
		group: GROUP.feeds,
		type: 'boolean',
		default: false,
		describe:
			"Let the Atom feed, the webhook and the notifications also carry a URL's first sighting (reason new); off, a new store's first run does not flood them",
	},
	notify: {
		group: GROUP.feeds,
		type: 'string',
		// Not `array: true`: that would take the URLs after it as more notify URLs. Repeated, yargs gives a list.
		coerce: (value: unknown) => (value === undefined ? [] : [value].flat().map(String)),
		default: [],
		requiresArg: true,
		describe:
			'Send a notification of each change to this apprise-style URL (repeatable): mailto://USER:PASS@HOST:PORT?to=ADDR (mailtos:// with TLS), ' +
			'ntfy://HOST/TOPIC, discord://ID/TOKEN, slack://A/B/C/#CHANNEL, tgram://BOT_TOKEN/CHAT_ID, matrix://USER:PASS@HOST/#ROOM, ' +
			'json://HOST/PATH; any other scheme through the apprise command. A change is kept in the store until delivered; secrets are never shown',
	},
	'notify-template': {
		group: GROUP.feeds,
		type: 'string',
		requiresArg: true,
		describe:
			`The notification's body, e.g. '{url}: {previous_price} → {price} {currency}'; placeholders: ` +
			`${PLACEHOLDERS.map((name) => `{${name}}`).join(' ')} [default: the URL, the reason, and what moved]`,
	},
	'notify-apprise': {
		group: GROUP.feeds,
		type: 'boolean',
		default: false,
		describe: 'Send every --notify URL through the apprise command, also those revisit sends itself',
	},
	'delivery-max-age': {
		group: GROUP.feeds,
		requiresArg: true,
		default: '7d',
		coerce: durationValue('delivery-max-age'),
		describe: 'How long a change waits in the store for a feed or notification target that is down before it is dropped (with a line on stderr)',
	},
};

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
