import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/base/errors/index.js';
import { notifier } from '../../../src/io/notify/index.js';

const refusal = (run: () => unknown): UsageError => {
	try {
		run();
	} catch (error) {
		if (error instanceof UsageError) return error;
		throw error;
	}
	throw new Error('not refused');
};

describe('notifier', () => {
	it('a scheme revisit does not send, without apprise installed: a usage error naming the scheme and the install, the URL hidden', () => {
		const error = refusal(() => notifier('pover://user-key-123@app-token-456', { env: { PATH: '/nonexistent' } }));
		expect(error.message).toBe(
			'notify URL pover://***@*** uses pover://, which revisit does not send itself (it sends mailto:// mailtos:// ntfy:// ntfys:// discord:// slack:// ' +
				'tgram:// matrix:// matrixs:// json:// jsons://), and the apprise command is not installed: apt-get install apprise (or pipx install ' +
				'apprise)',
		);
	});

	it('apprise: true without apprise installed is refused the same way', () => {
		expect(refusal(() => notifier('json://host/path', { apprise: true, env: { PATH: '/nonexistent' } })).message).toContain(
			'was asked to go through apprise, and the apprise command is not installed: apt-get install apprise',
		);
	});

	it('text that is no URL is refused without showing what follows its first colon', () => {
		const error = refusal(() => notifier('mailto:me:hunter22@example.org'));
		expect(error.message).toMatch(/^notify URL starting "mailto": not a URL; write SCHEME:\/\//);
		expect(error.message).not.toContain('hunter22');
	});

	it('an http(s):// URL is refused, pointing to json:// and --webhook', () => {
		expect(refusal(() => notifier('https://hooks.example.org/x')).message).toBe(
			'notify URL https://…: not a notification service; for a JSON POST write json://HOST/PATH (jsons:// for https), or use --webhook',
		);
	});

	it('a malformed URL of a known scheme is refused with its secrets hidden', () => {
		const error = refusal(() => notifier('mailtos://me:hunter22@example.org?mode=tls'));
		expect(error.message).toBe('notify URL mailtos://me:***@example.org?mode=tls: mode must be ssl, starttls or insecure (got "tls")');
	});

	it('shows a URL with its secrets masked by where they stand: the password, secret query parameters and +Header values, whole', () => {
		// With the password `x` replaced wherever it was written, the recipient was shown as a@e***ample.org.
		expect(notifier('mailtos://me:x@smtp.example.org?to=a@example.org').shown).toBe('mailtos://me:***@smtp.example.org?to=a@example.org');
		expect(notifier('json://127.0.0.1:8080/j?token=SECRET&v=2').shown).toBe('json://127.0.0.1:8080/j?token=***&v=2');
		expect(notifier('json://127.0.0.1:8080/j?+X-Api-Key=SECRET&api%5Fkey=SECRET2').shown).toBe('json://127.0.0.1:8080/j?+X-Api-Key=***&api%5Fkey=***');
		expect(notifier('ntfys://ntfy.example.org/prices?Auth_Token=abc&tags=shop').shown).toBe('ntfys://ntfy.example.org/prices?Auth_Token=***&tags=shop');
	});
});
