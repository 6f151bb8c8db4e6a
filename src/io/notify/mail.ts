import { UsageError } from '../../base/errors/index.js';
import { withDeadline } from './deadline.js';
import type { Message } from './types.js';
import type { NotifyUrl } from './url.js';

/** What a `mailto://` URL says, as nodemailer takes it. */
export interface MailSettings {
	host: string;
	port: number;
	/** TLS from the first byte (port 465, `mode=ssl`); otherwise STARTTLS when offered, required by `mailtos://`. */
	secure: boolean;
	requireTLS: boolean;
	auth?: { user: string; pass: string } | undefined;
	from: string;
	to: string[];
	cc: string[];
	bcc: string[];
}

const list = (text: string | undefined): string[] => (text ?? '').split(/[\s,;]+/).filter(Boolean);

/**
 * Reads apprise's e-mail URL forms: `mailto://user:pass@host:port?to=a@b&from=c@d`, with
 * `smtp=HOST` for a server other than the domain, `mode=ssl|starttls`, `name=`, `cc=`,
 * `bcc=`, `user=`, `pass=`, and recipients as path segments (`mailto://host/a@b`). The
 * sender defaults to user@host, the recipient to the sender. `mailto://` defaults to
 * port 25, `mailtos://` to 587 with STARTTLS required (465 with TLS for `mode=ssl`).
 *
 * @example
 * mailSettings(splitNotifyUrl('mailtos://me:pw@example.org?smtp=smtp.example.org&to=you@example.org')!, 'mailtos://me:***@…')
 */
export function mailSettings(url: NotifyUrl, shown: string): MailSettings {
	const secure = url.scheme === 'mailtos';
	const mode = (url.query['mode'] ?? (secure ? 'starttls' : 'insecure')).toLowerCase();
	if (!['ssl', 'starttls', 'insecure'].includes(mode))
		throw new UsageError(`notify URL ${shown}: mode must be ssl, starttls or insecure (got ${JSON.stringify(mode)})`);
	const host = url.query['smtp'] || url.host;
	if (!host) throw new UsageError(`notify URL ${shown}: no mail server; write mailto://user:pass@host:port?to=you@example.org`);
	const user = url.query['user'] ?? url.user;
	const pass = url.query['pass'] ?? url.password;
	const address = url.query['from'] ?? (user === undefined ? `revisit@${url.host || host}` : user.includes('@') ? user : `${user}@${url.host || host}`);
	const from = url.query['name'] ? `"${url.query['name'].replace(/"/g, "'")}" <${address}>` : address;
	const to = [...list(url.query['to']), ...url.path.filter((segment) => segment.includes('@'))];
	return {
		host,
		port: url.port ?? (mode === 'ssl' ? 465 : secure ? 587 : 25),
		secure: mode === 'ssl',
		requireTLS: mode === 'starttls',
		auth: user !== undefined && pass !== undefined ? { user, pass } : undefined,
		from,
		to: to.length > 0 ? to : [address],
		cc: list(url.query['cc']),
		bcc: list(url.query['bcc']),
	};
}

/**
 * Sends one message by SMTP. nodemailer is imported on first use, so that a run without
 * e-mail does not load it. Its timeouts bound connecting, the greeting and a silent
 * server; a server that keeps sending (a reply of endless `250-` lines) resets them with
 * each byte, so the whole exchange has `timeoutMs` too: past it, or when `signal` aborts,
 * the connection is dropped and the send rejects (`mail server HOST:PORT did not finish
 * within MS ms`).
 *
 * @example
 * await sendMail(mailSettings(url, shown), message, 15_000, signal)
 */
export async function sendMail(settings: MailSettings, message: Message, timeoutMs: number, signal?: AbortSignal): Promise<void> {
	const { createTransport } = await import('nodemailer');
	const transport = createTransport({
		host: settings.host,
		port: settings.port,
		secure: settings.secure,
		requireTLS: settings.requireTLS,
		auth: settings.auth,
		connectionTimeout: timeoutMs,
		greetingTimeout: timeoutMs,
		socketTimeout: timeoutMs,
		// Dropped, not ended politely: a server that is still talking would hold the socket for 5 s more.
		socketCloseTimeout: 0,
	} as Parameters<typeof createTransport>[0]);
	try {
		await withDeadline(timeoutMs, `mail server ${settings.host}:${settings.port}`, signal, (aborted) =>
			// nodemailer 10 closes the connection when the message's signal aborts (@types/nodemailer 8 does not know the field).
			transport.sendMail({
				from: settings.from,
				to: settings.to,
				cc: settings.cc,
				bcc: settings.bcc,
				subject: message.title,
				text: message.body,
				signal: aborted,
			} as Parameters<typeof transport.sendMail>[0]),
		);
	} finally {
		transport.close();
	}
}
