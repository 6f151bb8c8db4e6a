import { OptionError, UsageError } from '../../base/errors/index.js';
import { appriseLoads, findApprise, sendApprise } from './apprise.js';
import { json } from './json.js';
import { mailSettings, sendMail } from './mail.js';
import { matrix } from './matrix.js';
import { ntfy } from './ntfy.js';
import { maskUrl } from '../../base/util/shown-url.js';
import { API_BASE, type Notifier, type NotifyOptions, type Service } from './types.js';
import { hide, splitNotifyUrl, type NotifyUrl } from './url.js';
import { discord, slack, telegram } from './webhooks.js';

export { checkTemplate, messageOf, PLACEHOLDERS } from './message.js';
export { hide, splitNotifyUrl, type NotifyUrl } from './url.js';
export type { ApiBase, Message, Notifier, NotifyOptions } from './types.js';

const mail: Service = {
	build(url, context) {
		const settings = mailSettings(url, context.shown);
		return (message, signal) => sendMail(settings, message, context.timeoutMs, signal);
	},
};

/** The schemes revisit sends itself; any other goes through the apprise command. */
export const SERVICES: Readonly<Record<string, Service>> = {
	mailto: mail,
	mailtos: mail,
	ntfy,
	ntfys: ntfy,
	discord,
	slack,
	tgram: telegram,
	matrix,
	matrixs: matrix,
	json,
	jsons: json,
};

/**
 * Any part of a URL revisit does not read itself may be a token (`pbul://TOKEN`): all are
 * hidden in error text, but those under 4 characters (no token is that short, and hiding
 * `x` would garble every word with an x), a password always.
 */
const everyPart = (url: NotifyUrl): string[] =>
	[url.password ?? '', ...[url.user ?? '', url.host, ...url.path, ...Object.values(url.query)].filter((part) => part.length >= 4)].filter(Boolean);

/** Such a URL as it may be shown: its scheme, port and query keys; every other part `***`. */
const outline = (url: NotifyUrl): string => {
	const userinfo = url.user === undefined && url.password === undefined ? '' : url.password === undefined ? '***@' : '***:***@';
	const query = Object.keys(url.query).map((key) => `${key}=***`);
	return (
		`${url.scheme}://${userinfo}***${url.port === undefined ? '' : `:${url.port}`}${url.path.map(() => '/***').join('')}` +
		`${query.length > 0 ? `?${query.join('&')}` : ''}`
	);
};

/**
 * A notify URL, parsed and checked, ready to send: natively for the schemes in SERVICES,
 * else (or with `apprise: true`) through the `apprise` command. A malformed URL, or one
 * that needs apprise where it is not installed, throws a UsageError that shows the URL
 * with its secrets hidden. Whether apprise can load a URL it sends is known only by asking
 * it: `check()` does (a dry run), and a run awaits it before its first request.
 *
 * @example
 * const target = notifier('ntfy://127.0.0.1:8080/prices');
 * await target.check();
 * await target.send(messageOf(task));
 */
export function notifier(raw: string, options: NotifyOptions = {}): Notifier {
	const url = splitNotifyUrl(raw);
	// Nothing past the first `:` is shown: a mistyped URL may still carry a password.
	if (!url)
		throw new UsageError(
			`notify URL starting ${JSON.stringify(raw.trim().split(/[:/@]/)[0]!.slice(0, 20))}: not a URL; write SCHEME://…, e.g. ` +
				`mailtos://user:pass@smtp.example.org?to=you@example.org or ntfy://ntfy.example.org/topic`,
		);
	// Apprise has no http(s):// service either: a web address here is a page to check, or a webhook.
	if (url.scheme === 'http' || url.scheme === 'https')
		throw new UsageError(
			`notify URL ${url.scheme}://…: not a notification service; for a JSON POST write json://HOST/PATH (jsons:// for https), or use --webhook`,
		);
	const timeoutMs = options.timeoutMs ?? 15_000;
	if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
		throw new OptionError('timeoutMs', `Expected timeoutMs to be a positive number of milliseconds, got ${timeoutMs}`);
	const service = options.apprise ? undefined : SERVICES[url.scheme];
	// A service's URL is shown masked by where its secrets stand; one apprise sends, whose parts revisit cannot read, in outline.
	const masked = service ? maskUrl(url.raw, service.hidden?.(url)) : undefined;
	const secrets = masked ? masked.secrets : everyPart(url);
	const shown = masked ? masked.shown : outline(url);
	const guarded =
		(send: Notifier['send']): Notifier['send'] =>
		async (message, signal) => {
			try {
				await send(message, signal);
			} catch (error) {
				throw new Error(hide((error as Error).message ?? String(error), secrets));
			}
		};
	if (service)
		return { shown, secrets, send: guarded(service.build(url, { apiBase: { ...API_BASE, ...options.apiBase }, timeoutMs, shown })), check: async () => {} };
	const env = options.env ?? process.env;
	const command = findApprise(env);
	if (!command) {
		const why = options.apprise
			? 'was asked to go through apprise'
			: `uses ${url.scheme}://, which revisit does not send itself (it sends ${[...new Set(Object.keys(SERVICES))].map((s) => `${s}://`).join(' ')})`;
		throw new UsageError(`notify URL ${shown} ${why}, and the apprise command is not installed: apt-get install apprise (or pipx install apprise)`);
	}
	const check = async (signal?: AbortSignal) => {
		let loads: boolean;
		try {
			loads = await appriseLoads(command, url.raw, { timeoutMs, env, signal });
		} catch (error) {
			throw new UsageError(`notify URL ${shown} could not be checked with apprise --dry-run: ${hide((error as Error).message, secrets)}`);
		}
		// apprise's own words are not repeated: they show the URL's secrets abbreviated (`p...3`), which hiding them whole would miss.
		if (!loads)
			throw new UsageError(
				`notify URL ${shown}: apprise cannot load it (apprise --dry-run refused it: a scheme apprise does not know, or a URL its service cannot read); ` +
					`apprise --details lists the schemes it knows`,
			);
	};
	return { shown, secrets, send: guarded((message, signal) => sendApprise(command, url.raw, message, { timeoutMs, env, signal })), check };
}
