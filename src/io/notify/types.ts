import type { HiddenParts } from '../../base/util/shown-url.js';

/** One notification: a short title and a plain-text body. */
export interface Message {
	title: string;
	body: string;
	/** The changed page, for services that link it (ntfy's Click, JSON's `url`). */
	url: string;
	/** Extra fields a JSON receiver gets as they are (the verdict's reason, product and previous offer). */
	fields: Record<string, unknown>;
}

/** Where the fixed-host services are reached: their public APIs, unless a test or a proxy says otherwise. */
export interface ApiBase {
	discord: string;
	slack: string;
	telegram: string;
	/** Where `ntfy://TOPIC` (a URL with no host of its own) publishes. */
	ntfy: string;
}

export const API_BASE: ApiBase = {
	discord: 'https://discord.com',
	slack: 'https://hooks.slack.com',
	telegram: 'https://api.telegram.org',
	ntfy: 'https://ntfy.sh',
};

/** How notifiers are built. */
export interface NotifyOptions {
	/** Overrides the fixed API hosts (tests point them at 127.0.0.1). */
	apiBase?: Partial<ApiBase> | undefined;
	/** Send every URL through the `apprise` command, also those revisit posts itself. */
	apprise?: boolean | undefined;
	/**
	 * The deadline of one attempt at a message (default 15 s): each request of a service
	 * revisit posts to, the whole SMTP exchange of an e-mail, the whole apprise run.
	 */
	timeoutMs?: number | undefined;
	/** Where the `apprise` command is looked up (default: process.env). */
	env?: NodeJS.ProcessEnv | undefined;
}

/** A notify URL, parsed and ready to send. */
export interface Notifier {
	/** The URL as it may be shown: its secrets masked by where they stand (base/util/shown-url.ts), never by their text. */
	shown: string;
	/** The URL's secrets (passwords, tokens), cut out of any error text before it is shown. */
	secrets: string[];
	/**
	 * Sends one message; rejects with a message free of secrets, at the deadline (`timeoutMs`)
	 * at the latest, and at once when `signal` aborts (its connection closed, apprise killed).
	 */
	send(message: Message, signal?: AbortSignal): Promise<void>;
	/**
	 * Confirms, sending nothing, that the URL can be sent: apprise's dry run loads one that
	 * goes through apprise (revisit's own schemes were checked when the notifier was built).
	 * Rejects with a UsageError showing the URL with its secrets hidden.
	 */
	check(signal?: AbortSignal): Promise<void>;
}

/** What a service is built with: the resolved API hosts, the timeout, and the URL as it may be shown. */
export interface ServiceContext {
	apiBase: ApiBase;
	timeoutMs: number;
	/** The URL, redacted. */
	shown: string;
}

/** One service family, by scheme: what of its URL is secret, and its sender (a malformed URL throws a UsageError). */
export interface Service {
	/** The parts of its URL the scheme makes a secret, beyond the password, the `+Header` values and the parameters named as secrets, which every URL hides. */
	hidden?(url: import('./url.js').NotifyUrl): HiddenParts;
	build(url: import('./url.js').NotifyUrl, context: ServiceContext): (message: Message, signal?: AbortSignal) => Promise<void>;
}
