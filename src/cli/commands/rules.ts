import type { Argv, CommandModule } from 'yargs';
import { countedText } from '../../domain/content/counted.js';
import { compileRules, ruleFor } from '../../domain/content/rules.js';
import { UsageError } from '../../base/errors/index.js';
import { createHttpClient } from '../../net/http/client.js';
import { decodeBody } from '../../net/http/decode.js';
import { hashText } from '../../domain/content/content-hash.js';
import { hashBody } from '../../domain/content/hash.js';
import { isPdf, pdfText } from '../../domain/content/pdf-text.js';
import { ruleFlagOptions, rulesFrom } from '../flags/rules.js';
import { sweepDefaults } from '../../pipelines/sweep-defaults.js';
import type { CliIo } from '../io.js';
import type { CommandResult } from '../shared/result.js';
import { storeFlag, withStore } from '../shared/store-option.js';
import { GROUP, groupedFlags, type ArgvOf } from '../flags/groups.js';
import { offerLines } from '../shared/rules-offer.js';
import { maskedHash } from '../../domain/content/noise.js';
import { noiseOf, placesAt, templateOf } from '../../net/hosts/noise.js';
import { normaliseUrl } from '../../stages/normalise.js';
import type { HostRecord, UrlRecord } from '../../store/model/types.js';

/**
 * `revisit rules test URL [--select …] [--exclude …] [--ignore …] [--rules FILE]`: fetches
 * the page once and prints what the rules count (stdout), then which rule applied, what
 * its exclude selectors removed and the content hash (stderr): a preview for writing
 * rules, like urlwatch's --test-filter.
 */
export function rulesCommand(io: CliIo, result: CommandResult): CommandModule<object, object> {
	return {
		command: 'rules',
		describe: 'Work with content rules: revisit rules test URL shows what they count on a page',
		builder: (yargs) => yargs.command(testCommand(io, result)).demandCommand(1, 'Name a subcommand: revisit rules test URL'),
		handler: () => {},
	};
}

/** `rules test`'s positionals and flags, from which its handler's arguments are typed. */
function rulesTestBuilder(yargs: Argv, io: CliIo) {
	return groupedFlags(yargs.positional('url', { type: 'string', demandOption: true, describe: 'The page to try the rules on' }), {
		store: { ...storeFlag(io.env), group: GROUP.io },
		...ruleFlagOptions,
	})
		.example("revisit rules test https://shop.example/item/7 --select '.price'", 'Only the price counts')
		.example(
			"revisit rules test https://shop.example/item/7 --exclude '.recently-viewed'",
			'All but the "recently viewed" block counts; each element removed is listed',
		)
		.example('revisit rules test https://example.org/ --text --ignore "Generated at [0-9:]+"', 'Visible text, without the timestamp')
		.example('revisit rules test https://shop.example/item/7 --product', 'The offer (price, currency, availability), and what each markup on the page gave')
		.example(
			'revisit rules test https://shop.example/item/7 --store .revisit',
			'Also the noise learned for the page (--learn-noise): each place, where and when it was learned',
		);
}

type RulesTestArgs = ArgvOf<ReturnType<typeof rulesTestBuilder>>;

function testCommand(io: CliIo, result: CommandResult): CommandModule<object, RulesTestArgs> {
	return {
		command: 'test <url>',
		describe: 'Fetch URL once and print what the content rules count on it, and its content hash',
		builder: (yargs) => rulesTestBuilder(yargs, io),
		handler: async (args) => {
			result.status = await rulesTest(io, args);
		},
	};
}

async function rulesTest(io: CliIo, args: RulesTestArgs): Promise<number> {
	if (!/^https?:\/\//i.test(args.url)) throw new UsageError(`not an http(s) URL: ${args.url}`);
	const rules = compileRules((await rulesFrom(args)) ?? []);
	const client = createHttpClient({
		userAgent: sweepDefaults.userAgent,
		timeoutMs: sweepDefaults.timeoutMs,
		acceptEncoding: sweepDefaults.acceptEncoding,
		maxBodyBytes: sweepDefaults.maxBodyBytes,
	});
	try {
		const response = await client.got(args.url);
		if (response.statusCode < 200 || response.statusCode >= 300) {
			io.stderr.write(`revisit: ${args.url} answered ${response.statusCode}: rules apply to 2xx bodies only\n`);
			return 1;
		}
		const body = await decodeBody(response.rawBody, response.headers['content-encoding'], sweepDefaults.maxBodyBytes);
		const rule = ruleFor(rules, args.url);
		const type = response.headers['content-type'];
		const pdf = isPdf(type, body) ? await pdfText(body) : undefined;
		const counted = countedText(rule, body, type, { explain: true, url: args.url, pdf });
		io.stdout.write(counted.text.endsWith('\n') ? counted.text : `${counted.text}\n`);
		const which = rule
			? `rule ${rules.indexOf(rule) + 1} of ${rules.length}`
			: rules.length > 0
				? 'no rule matches this URL: the whole body counts'
				: 'no rules: the whole body counts';
		const notes = [which, `read as ${counted.kind === 'none' ? 'text' : counted.kind}`];
		if (counted.matched === false && !rule?.product) notes.push('the selectors matched nothing');
		if (counted.excluded === 0) notes.push('the exclude selectors matched nothing');
		if (counted.why !== undefined) notes.push(`a PDF whose text was not read (${counted.why}): hashed as bytes`);
		else if (counted.kind === 'bytes') notes.push('not HTML or JSON: hashed as bytes');
		const hash = counted.why !== undefined ? hashBody(body) : hashText(counted.text);
		io.stderr.write(`revisit: ${notes.join('; ')}; counted ${Buffer.byteLength(counted.text)} of ${body.length} bytes; content hash ${hash}\n`);
		if (counted.excerpts?.length) {
			const n = counted.excerpts.length;
			io.stderr.write(
				`revisit: excluded ${n} element${n === 1 ? '' : 's'} ` +
					`(${rule!.exclude!.map((selector) => selector.source).join(', ')}):\n${counted.excerpts.map((line) => `  ${line}\n`).join('')}`,
			);
		}
		if (rule?.product && counted.explained)
			io.stderr.write(
				offerLines(counted.offer, counted.explained, { ...rule.product, url: args.url })
					.map((line, i) => (i === 0 ? `revisit: ${line}\n` : `${line}\n`))
					.join(''),
			);
		await showNoise(io, args, counted.text);
		return counted.matched === false ? 1 : 0;
	} catch (error) {
		io.stderr.write(`revisit: cannot fetch ${args.url}: ${(error as Error).message}\n`);
		return 1;
	} finally {
		client.close();
	}
}

/**
 * The noise learned for the page (`--learn-noise`), from the store when there is one: each
 * place left out of its hash, where it was learned (on this page, or on pages of its host
 * sharing its URL template) and when, and the hash without them.
 */
async function showNoise(io: CliIo, args: RulesTestArgs, text: string): Promise<void> {
	const normal = normaliseUrl(args.url);
	if ('problem' in normal) return;
	let found: { record: UrlRecord | undefined; host: HostRecord | undefined };
	try {
		found = await withStore(args.store, { create: false, viaWatch: true }, async (store) => ({
			record: (await store.getMany([normal.url]))[0],
			host: (await store.getHosts([normal.origin]))[0],
		}));
	} catch {
		return;
	}
	const entries = noiseOf(found.record, found.host?.noise, normal.url);
	const legacy = found.record?.noise ?? [];
	if (entries.length === 0 && legacy.length === 0) {
		io.stderr.write('revisit: no noise learned for this page\n');
		return;
	}
	const lines = entries.map(
		(entry) =>
			`  ${entry.at}  (` +
			(entry.where === 'page' ? 'learned on this page' : `learned on pages of ${normal.origin} like ${templateOf(normal.url)}`) +
			`, ${new Date(entry.since).toISOString()})`,
	);
	for (const pattern of legacy) lines.push(`  re:${pattern}  (learned on this page by an earlier revisit)`);
	const hash = maskedHash(text, placesAt(entries, Number.POSITIVE_INFINITY), legacy);
	io.stderr.write(
		`revisit: learned noise, left out of this page's hash (revisit noise forget URL drops it):\n${lines.join('\n')}\nrevisit: ` +
			`content hash without the noise ${hash}\n`,
	);
}
