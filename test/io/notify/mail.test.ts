import { describe, expect, it } from 'vitest';
import { notifier } from '../../../src/io/notify/index.js';
import { mailSettings } from '../../../src/io/notify/mail.js';
import { splitNotifyUrl } from '../../../src/io/notify/url.js';
import { describeSmtp, startSmtp } from '../../helpers/smtp.js';
import { MESSAGE } from './receiver.js';

const settings = (url: string) => mailSettings(splitNotifyUrl(url)!, url);

describe("mailSettings: apprise's mailto:// forms", () => {
	it('mailto://user:pass@host: port 25, sender user@host, recipient the sender', () => {
		expect(settings('mailto://me:pw@example.org')).toEqual({
			host: 'example.org',
			port: 25,
			secure: false,
			requireTLS: false,
			auth: { user: 'me', pass: 'pw' },
			from: 'me@example.org',
			to: ['me@example.org'],
			cc: [],
			bcc: [],
		});
	});

	it('mailtos://: 587 with STARTTLS required; mode=ssl: 465 with TLS; smtp= names the server', () => {
		expect(settings('mailtos://me:pw@example.org?smtp=smtp.example.org&to=you@example.org')).toMatchObject({
			host: 'smtp.example.org',
			port: 587,
			secure: false,
			requireTLS: true,
			from: 'me@example.org',
			to: ['you@example.org'],
		});
		expect(settings('mailtos://me:pw@example.org?mode=ssl')).toMatchObject({ port: 465, secure: true, requireTLS: false });
	});

	it('from=, name=, to= lists, cc=, bcc=, recipients in the path, and an explicit port', () => {
		expect(
			settings(
				'mailto://smtp.example.org:2525/c@example.org?from=bot@example.org&name=Price%20bot&to=a@example.org,b@example.org&cc=d@example.org&bcc=e@example.org',
			),
		).toMatchObject({
			port: 2525,
			auth: undefined,
			from: '"Price bot" <bot@example.org>',
			to: ['a@example.org', 'b@example.org', 'c@example.org'],
			cc: ['d@example.org'],
			bcc: ['e@example.org'],
		});
	});

	it('refuses an unknown mode', () => {
		expect(() => settings('mailtos://me:pw@example.org?mode=tls')).toThrow('mode must be ssl, starttls or insecure');
	});
});

describeSmtp('mailto:// to a real SMTP server (aiosmtpd)', () => {
	it('delivers the message: sender, recipients, subject and body', async () => {
		const smtp = await startSmtp();
		try {
			await notifier(`mailto://${smtp.host}:${smtp.port}?from=revisit@example.org&to=me@example.org`).send(MESSAGE);
			const [mail, ...more] = await smtp.mails();
			expect(more).toEqual([]);
			expect(mail).toMatchObject({ from: 'revisit@example.org', to: ['me@example.org'], subject: MESSAGE.title });
			expect(mail!.body.replace(/\r\n/g, '\n').trim()).toBe(MESSAGE.body);
		} finally {
			await smtp.stop();
		}
	});

	it('mailtos:// to a server without STARTTLS fails rather than send in the clear', async () => {
		const smtp = await startSmtp();
		try {
			await expect(notifier(`mailtos://${smtp.host}:${smtp.port}?from=revisit@example.org`).send(MESSAGE)).rejects.toThrow(/STARTTLS/i);
			expect(await smtp.mails()).toEqual([]);
		} finally {
			await smtp.stop();
		}
	});
});
