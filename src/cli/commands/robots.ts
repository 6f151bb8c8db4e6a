import { readFile } from 'node:fs/promises';
import type { Argv, CommandModule } from 'yargs';
import { robotsAgentValue } from '../../config/values.js';
import { UsageError } from '../../base/errors/index.js';
import { createHostBook } from '../../net/hosts/book.js';
import { createHttpClient } from '../../net/http/client.js';
import { createLimiter } from '../../net/http/limiter.js';
import { robotsAgentOf, sweepDefaults } from '../../pipelines/sweep-defaults.js';
import { canBeNamed } from '../../net/robots/agent.js';
import { createRobotsGate, type OriginRobots } from '../../net/robots/gate.js';
import { decide, pathOf, rulesFor, type AgentRules } from '../../net/robots/match.js';
import { parseRobots } from '../../net/robots/parse.js';
import { systemClock } from '../../domain/task/clock.js';
import { typedCommand } from '../flags/groups.js';
import type { CliIo } from '../io.js';
import type { CommandResult } from '../shared/result.js';
import { storeOption, withStore } from '../shared/store-option.js';

const defaultAgent = robotsAgentOf(sweepDefaults);
// Both subcommands (check, and the lookup through the store) take the crawler's name the same way.
const AGENT_FLAG = {
	type: 'string',
	requiresArg: true,
	coerce: robotsAgentValue('agent'),
	describe: `The crawler's name matched against the User-agent lines, whole [default: ${defaultAgent}]`,
} as const;

/**
 * `revisit robots URL`: which robots.txt group and rule apply to URL on the live site,
 * and where the copy came from. `revisit robots check --robots FILE URL...`: the matcher
 * on a local file, exit 1 if any URL is disallowed.
 */
export function robotsCommand(io: CliIo, result: CommandResult): CommandModule<object, object> {
	return {
		command: 'robots',
		describe: 'Which robots.txt rule applies to a URL: on the live site (revisit robots URL), or in a file (revisit robots check)',
		builder: (yargs) => yargs.command(checkCommand(io, result)).command(liveCommand(io, result)),
		handler: () => {},
	};
}

function checkCommand(io: CliIo, result: CommandResult) {
	return typedCommand({
		command: 'check <urls..>',
		describe: 'Print each URL with allowed or disallowed under a robots.txt file: exit 0 if all are allowed, 1 if any is disallowed',
		builder: (yargs) =>
			yargs
				.positional('urls', { type: 'string', array: true, demandOption: true, describe: 'URLs to check (their path and query are matched)' })
				.option('robots', { type: 'string', demandOption: true, requiresArg: true, describe: 'The robots.txt file' })
				.option('agent', AGENT_FLAG)
				.example('revisit robots check --robots robots.txt --agent revisit https://example.org/private/x', 'disallowed, exit 1'),
		handler: async (args) => {
			const text = await readFile(args.robots).catch((error: Error) => {
				throw new UsageError(`cannot read --robots ${args.robots}: ${error.message}`);
			});
			const agent = args.agent ?? defaultAgent;
			noteUnnamable(io, agent);
			const rules = rulesFor(parseRobots(text), agent);
			let disallowed = 0;
			for (const url of args.urls) {
				const path = pathOrThrow(url);
				const { allowed } = decide(rules, path);
				if (!allowed) disallowed++;
				io.stdout.write(`${url} ${allowed ? 'allowed' : 'disallowed'}\n`);
			}
			result.status = disallowed > 0 ? 1 : 0;
		},
	});
}

function liveCommand(io: CliIo, result: CommandResult) {
	return typedCommand({
		command: '$0 <url>',
		describe: "Fetch (or revalidate) URL's robots.txt as a run would, and show the group and rule that apply",
		builder: (yargs) =>
			storeOption(yargs as Argv, io.env)
				.positional('url', { type: 'string', demandOption: true, describe: 'The URL to look up' })
				.option('agent', AGENT_FLAG)
				.example('revisit robots https://example.org/private/x', 'The copy (fetched, 304, cached, or unreachable), the group, the rule'),
		handler: async (args) => {
			const url = new URL(args.url.includes('://') ? args.url : 'invalid:');
			if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`not an http(s) URL: ${args.url}`);
			const agent = args.agent ?? defaultAgent;
			noteUnnamable(io, agent);
			result.status = await withStore(args.store, { create: true }, async (store) => {
				const clock = systemClock;
				const book = createHostBook(store, clock.now());
				await book.load([url.origin]);
				const client = createHttpClient({
					userAgent: sweepDefaults.userAgent,
					timeoutMs: sweepDefaults.timeoutMs,
					acceptEncoding: sweepDefaults.acceptEncoding,
				});
				try {
					const gate = createRobotsGate(
						{ http: client.got, limiter: createLimiter({ concurrency: 1, perHost: 1 }, clock), clock, book },
						{ agent, maxCrawlDelayMs: sweepDefaults.maxCrawlDelayMs, timeoutMs: sweepDefaults.timeoutMs },
					);
					const robots = await gate.origin(url.origin);
					await store.batch(book.drain());
					const path = pathOf(url.href);
					const lines = [`robots.txt: ${sourceLine(robots, clock.now())}`, `agent: ${agent}; ${groupLine(robots.rules)}`];
					if (robots.deferred !== undefined) {
						lines.push(`verdict: deferred (${robots.deferred})`);
						io.stdout.write(`${lines.join('\n')}\n`);
						return 1;
					}
					const decision = robots.rules ? decide(robots.rules, path) : { allowed: true, rule: undefined };
					const rule = decision.rule
						? `line ${decision.rule.line}: ${decision.rule.allow ? 'Allow' : 'Disallow'}: ${decision.rule.written}`
						: 'no rule matches';
					if (robots.rules?.crawlDelay !== undefined) lines.push(`crawl-delay: ${robots.rules.crawlDelay}s`);
					lines.push(`rule: ${rule}`, `${url.href} ${decision.allowed ? 'allowed' : 'disallowed'}`);
					io.stdout.write(`${lines.join('\n')}\n`);
					return decision.allowed ? 0 : 1;
				} finally {
					client.close();
				}
			});
		},
	});
}

/** A name no User-agent line can give (Google's reading, net/robots/agent.ts) gets the * groups only: say so, since the user may expect otherwise. */
function noteUnnamable(io: CliIo, agent: string): void {
	if (!canBeNamed(agent))
		io.stderr.write(
			`revisit: no User-agent line can name ${JSON.stringify(agent)} (a line's name stops at the first character that is not a letter, _ or -): ` +
				`only the * groups apply to it\n`,
		);
}

function pathOrThrow(url: string): string {
	try {
		return pathOf(url);
	} catch {
		throw new UsageError(`not an absolute URL: ${url}`);
	}
}

function sourceLine(robots: OriginRobots, now: number): string {
	const age = robots.copy ? `${Math.round((now - robots.copy.fetchedAt) / 1000)}s ago` : '';
	switch (robots.source) {
		case 'fetched':
			return `fetched (HTTP ${robots.status})`;
		case '304':
			return 'revalidated (304 Not Modified)';
		case 'cached':
			return `cached (HTTP ${robots.copy?.status}, confirmed ${age}; no request)`;
		case 'stale':
			return `unreachable (${robots.status === undefined ? robots.error : `HTTP ${robots.status}`}): the copy confirmed ${age} applies`;
		case 'defaulted':
			return `HTTP ${robots.status ?? robots.copy?.status}: no robots.txt, everything allowed`;
		case 'unreachable':
			return `unreachable (${robots.status === undefined ? robots.error : `HTTP ${robots.status}`}), no copy to fall back on`;
	}
}

function groupLine(rules: AgentRules | undefined): string {
	if (!rules || rules.matched === 'none') return 'no group applies: everything allowed';
	const lines = rules.groups.map((group) => group.line).join(', ');
	return `${rules.matched === 'agent' ? 'its own group' : 'the * group'}${rules.groups.length > 1 ? 's (merged)' : ''} at line ${lines}`;
}
