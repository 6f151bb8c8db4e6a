import { UsageError } from '../../base/errors/index.js';
import { sendJson } from './post.js';
import type { Message, Service } from './types.js';

/** Chat services take a message, not a title and a body. */
const text = (message: Message): string => `${message.title}\n${message.body}`;

const cut = (value: string, max: number): string => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

/**
 * `discord://[botname@]WEBHOOK_ID/WEBHOOK_TOKEN`: a POST to the webhook
 * (`https://discord.com/api/webhooks/ID/TOKEN`), the message cut at Discord's 2000 characters.
 *
 * @example
 * discord.build(splitNotifyUrl('discord://123/abc')!, context)(message)
 */
export const discord: Service = {
	hidden: () => ({ path: 1 }),
	build(url, context) {
		const [token] = url.path;
		if (!url.host || !token) throw new UsageError(`notify URL ${context.shown}: write discord://WEBHOOK_ID/WEBHOOK_TOKEN (the two parts of the webhook's URL)`);
		const target = `${context.apiBase.discord}/api/webhooks/${encodeURIComponent(url.host)}/${encodeURIComponent(token)}`;
		return async (message, signal) =>
			void (await sendJson({
				url: target,
				json: { content: cut(text(message), 2000), ...(url.user ? { username: url.user } : {}) },
				timeoutMs: context.timeoutMs,
				signal,
			}));
	},
};

/**
 * `slack://[botname@]TOKEN_A/TOKEN_B/TOKEN_C[/#channel…]`: a POST to the incoming webhook
 * (`https://hooks.slack.com/services/A/B/C`), one per channel named (none: the webhook's own).
 *
 * @example
 * slack.build(splitNotifyUrl('slack://T1/B2/xyz/#alerts')!, context)(message)
 */
export const slack: Service = {
	hidden: () => ({ host: true, path: 2 }),
	build(url, context) {
		const [b, c, ...channels] = url.path;
		if (!url.host || !b || !c)
			throw new UsageError(`notify URL ${context.shown}: write slack://TOKEN_A/TOKEN_B/TOKEN_C/#channel (the three tokens of the incoming webhook's URL)`);
		const target = `${context.apiBase.slack}/services/${[url.host, b, c].map(encodeURIComponent).join('/')}`;
		return async (message, signal) => {
			for (const channel of channels.length > 0 ? channels : [undefined]) {
				await sendJson({
					url: target,
					json: { text: text(message), ...(channel ? { channel } : {}), ...(url.user ? { username: url.user } : {}) },
					timeoutMs: context.timeoutMs,
					signal,
				});
			}
		};
	},
};

/**
 * `tgram://BOT_TOKEN/CHAT_ID[/CHAT_ID…]`: a POST to the Bot API's sendMessage per chat.
 *
 * @example
 * telegram.build(splitNotifyUrl('tgram://123456:ABC-DEF/987654')!, context)(message)
 */
export const telegram: Service = {
	hidden: () => ({ host: true }),
	build(url, context) {
		const token = url.port === undefined ? url.host : `${url.host}:${url.port}`;
		if (!token.includes(':') || url.path.length === 0)
			throw new UsageError(`notify URL ${context.shown}: write tgram://BOT_TOKEN/CHAT_ID (the token BotFather gave, then the chat's id)`);
		const target = `${context.apiBase.telegram}/bot${token}/sendMessage`;
		return async (message, signal) => {
			for (const chat of url.path)
				await sendJson({
					url: target,
					json: { chat_id: chat, text: cut(text(message), 4096), disable_web_page_preview: true },
					timeoutMs: context.timeoutMs,
					signal,
				});
		};
	},
};
