import { readHostStats, type HostStats } from '../../net/hosts/stats.js';
import { describeStore } from '../../store/open.js';
import { typedCommand } from '../flags/groups.js';
import type { CliIo } from '../io.js';
import { formatTable } from '../../base/util/table.js';
import { pendingDeliveries, type PendingTarget } from '../../io/outbox/pending.js';
import type { CommandResult } from '../shared/result.js';
import { storeOption, withStore } from '../shared/store-option.js';
import { safeJson } from '../../base/util/visible.js';

/** Short labels for the MODE column; the WHY column says what was measured. */
const FORM_LABELS: Partial<Record<HostStats['form'], string>> = {
	etag: 'INM only',
	'last-modified': 'IMS only',
	'etag-stripped': 'ETag stripped',
	'etag-stripped-both': 'ETag stripped + IMS',
};

const percent = (ratio: number | null): string => (ratio === null ? '-' : `${(ratio * 100).toFixed(1)}%`);

/** A free signal's trust, for the WHY column; nothing until measured. */
const signalNote = (name: string, trust: HostStats['lastmod']): string =>
	trust ? `${name} ${trust.trusted ? 'trusted' : 'not trusted'}: ${trust.reason}` : '';

function row(stats: HostStats): string[] {
	const validators = [stats.etag === 'off' ? 'ETag off' : '', stats.lastModified === 'off' ? 'LM off' : '', FORM_LABELS[stats.form] ?? '']
		.filter(Boolean)
		.join(', ');
	return [
		stats.host,
		String(stats.urls),
		String(stats.conditional),
		percent(stats.ratio304),
		`${stats.mode}${stats.overridden ? ' (set)' : ''}${validators ? ` [${validators}]` : ''}${stats.blocked ? ' BLOCKED' : ''}`,
		`${stats.audits}/${stats.lies}`,
		stats.auditRate === null ? 'full' : `${Number((stats.auditRate * 100).toFixed(3))}%`,
		stats.method.toUpperCase(),
		String(stats.errors),
		String(stats.noisy),
		[stats.reason, signalNote('sitemap lastmod', stats.lastmod), signalNote('max-age', stats.maxAge)].filter(Boolean).join('; '),
	];
}

/** A host's pages that need rendering, under the table: per URL template, with their data requests. */
function renderedPages(stats: HostStats): string {
	const lines = stats.rendered.map(
		(entry) =>
			`  ${entry.template}  ${entry.pages} page${entry.pages === 1 ? '' : 's'}, ${entry.data} data request${entry.data === 1 ? '' : 's'} revalidated ` +
			`without a browser`,
	);
	return `\nPages of ${stats.host} that need rendering (--render):\n${lines.join('\n')}\n`;
}

/** A host's learned noise, under the table: each place, its template, and whether it applies to the template's pages yet. */
function learnedNoise(stats: HostStats): string {
	const lines = stats.learned.map(
		(entry) =>
			`  ${entry.template}  ${entry.at}  ` +
			(entry.applies
				? `applies to every page since ${entry.applies}`
				: `learned on ${entry.pages} page${entry.pages === 1 ? '' : 's'} so far, since ${entry.since}`),
	);
	return `\nLearned noise of ${stats.host} (revisit noise forget ${stats.host} drops it):\n${lines.join('\n')}\n`;
}

/** A host's product pages that gave no offer, under the table. */
function noOfferPages(stats: HostStats): string {
	const n = stats.noOffer.length;
	return (
		`\n${n === 1 ? 'A product page' : `${n} product pages`} of ${stats.host} with no offer found (--product; ` +
		`revisit rules test URL --product shows why):\n${stats.noOffer.map((url) => `  ${url}\n`).join('')}`
	);
}

/** One target's pending deliveries: how many, and since when. */
const pendingLine = (target: PendingTarget): string =>
	`${target.shown}  ${target.pending} pending, the oldest from ${new Date(target.oldestAt).toISOString()}` +
	(target.pending > 1 ? `, the newest from ${new Date(target.newestAt).toISOString()}` : '');

export function statsCommand(io: CliIo, result: CommandResult) {
	return typedCommand({
		command: 'stats',
		describe: "Show each host's health: 304 ratio, trust mode and why, audits and audit rate, method, errors",
		builder: (yargs) =>
			storeOption(yargs, io.env)
				.options({
					host: { type: 'string', describe: 'Only this host (an origin like https://example.org, or a hostname)' },
					json: { type: 'boolean', default: false, describe: 'One JSON object per host, one per line' },
				})
				.example('revisit stats', 'A table of every host')
				.example('revisit stats --json | jq \'select(.mode != "conditional")\'', 'Hosts whose validators are not trusted'),
		handler: async (args) => {
			await withStore(args.store, { create: false, viaWatch: true }, async (store) => {
				const rows: HostStats[] = [];
				for await (const stats of readHostStats(store, args.host)) rows.push(stats);
				if (args.host !== undefined && rows.length === 0) {
					io.stderr.write(`revisit: no host in ${describeStore(args.store)} matches ${args.host}\n`);
					result.status = 1;
					return;
				}
				const waiting = args.host === undefined ? await pendingDeliveries(store) : [];
				if (args.json) {
					for (const stats of rows) io.stdout.write(`${safeJson(stats)}\n`);
					// Not on stdout: its lines are one host each.
					for (const target of waiting) io.stderr.write(`revisit: ${pendingLine(target)}\n`);
				} else {
					io.stdout.write(
						formatTable(['HOST', 'URLS', 'COND', '304%', 'MODE', 'AUDITS/LIES', 'AUDIT RATE', 'METHOD', 'ERRORS', 'NOISY', 'WHY'], rows.map(row)),
					);
					for (const stats of rows.filter((host) => host.learned.length > 0)) io.stdout.write(learnedNoise(stats));
					for (const stats of rows.filter((host) => host.rendered.length > 0)) io.stdout.write(renderedPages(stats));
					for (const stats of rows.filter((host) => host.noOffer.length > 0)) io.stdout.write(noOfferPages(stats));
					if (waiting.length > 0)
						io.stdout.write(
							`\nPending deliveries (changes committed, waiting for their target):\n${waiting.map((target) => `  ${pendingLine(target)}\n`).join('')}`,
						);
				}
				result.status = 0;
			});
		},
	});
}
