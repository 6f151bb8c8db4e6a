import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import type { RunFigures, Scenario } from './scenario.js';
import type { ServerSpec } from './servers.js';

/** One server's outcome: its scenario figures, or why it has none. */
export interface ServerResult {
	spec: ServerSpec;
	scenario?: Scenario;
	/** Skipped (not installed) or failed to start. */
	note?: string;
	/** Assertions that failed, in words. */
	failures: string[];
}

const percent = (part: number, whole: number): string => (whole === 0 ? '-' : `${Math.round((part / whole) * 1000) / 10}%`);
const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;

/** 304s among the live URLs of an unchanged run. */
function ratio304(run: RunFigures): string {
	const live = Object.entries(run.reasons)
		.filter(([reason]) => reason !== 'gone')
		.reduce((sum, [, n]) => sum + n, 0);
	return percent(run.reasons['304'] ?? 0, live);
}

function form(host: Record<string, unknown>): string {
	const off = [host['etag'] === 'off' ? 'ETag off' : '', host['lastModified'] === 'off' ? 'LM off' : ''].filter(Boolean).join(', ');
	return `${String(host['mode'])}${off ? ` [${off}]` : ''}; form ${String(host['form'])}: ${String(host['formReason'] ?? '-')}`;
}

function packageVersions(specs: readonly ServerSpec[]): string {
	const packages = [...new Set(specs.flatMap((spec) => Object.values(spec.needs)))];
	try {
		// biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format, not a template
		return execFileSync('dpkg-query', ['-W', '-f', '${Package} ${Version}, ', ...packages], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).replace(
			/, $/,
			'',
		);
	} catch (error) {
		const out = (error as { stdout?: string }).stdout;
		return out ? out.replace(/, $/, '') : 'unknown (no dpkg-query)';
	}
}

/** bench/INTEROP.md: the per-server figures of the interop suite. */
export function renderReport(results: readonly ServerResult[]): string {
	const lines = [
		'# Interop: revisit against real web servers',
		'',
		'Written by the interop suite: `npm run build && REVISIT_WRITE_INTEROP=1 npx vitest run test/interop`',
		'(`test/interop/interop.test.ts`; servers are configured in `test/interop/servers/`).',
		'',
		`60 static HTML pages (2–7 KB, dated a day ago) per server, a fresh store, four runs of the built CLI`,
		'(`revisit sweep --ndjson --all`, default flags, so `--audit 0.02`): 1 first sight, 2 unchanged,',
		'3 after editing 8 pages and deleting 2, 4 unchanged. Node ' + process.version + `; ${packageVersions(results.map((result) => result.spec))}.`,
		'',
		'- **304 (run 2 / run 4)**: 304 verdicts among the live URLs of the unchanged runs; the rest were full bodies.',
		'- **bodies per run**: verdicts new, new-body, same-hash or audit (a full 200 body), runs 1/2/3/4;',
		'  **audits**: unconditional re-fetches of a 304 (counted apart, from `revisit stats`; their bytes are not in the bytes column).',
		"- **bytes per run**: sum of the verdicts' `bytes` (body bytes on the wire, gzipped where the server gzips; in run 4 the",
		"  two deleted pages' 404 bodies).",
		'- **host after run 4**: `revisit stats --json` for the origin: mode [validators switched off]; the conditional form chosen, and why.',
		'',
		'| server | setup | ETag (run 1) | 304 (run 2 / run 4) | bodies per run | audits | bytes per run | run 3 reported | host after run 4 | assertions |',
		'|---|---|---|--:|---|--:|---|---|---|---|',
	];
	for (const { spec, scenario, note, failures } of results) {
		if (!scenario) {
			lines.push(`| ${spec.name} | ${spec.setup} | | | | | | | | ${note ?? 'not run'} |`);
			continue;
		}
		const { runs } = scenario;
		const run3 = runs[2]!;
		const reported: Record<string, number> = {};
		for (const url of run3.changed) reported[run3.reasonOf[url]!] = (reported[run3.reasonOf[url]!] ?? 0) + 1;
		const cells = [
			spec.name,
			spec.setup,
			scenario.sample.etag ? `\`${scenario.sample.etag}\`` : 'none (Last-Modified only)',
			`${ratio304(runs[1]!)} / ${ratio304(runs[3]!)}`,
			runs.map((run) => run.bodies).join(' / '),
			String(scenario.host['audits'] ?? '-'),
			runs.map((run) => kib(run.bytes)).join(' / '),
			`${run3.changed.length}: ${Object.entries(reported)
				.map(([reason, n]) => `${n} ${reason}`)
				.join(', ')}`,
			form(scenario.host).replaceAll('|', '\\|'),
			failures.length === 0 ? 'pass' : `FAIL: ${failures.join('; ')}`,
		];
		lines.push(`| ${cells.join(' | ')} |`);
	}
	return `${lines.join('\n')}\n${NOTES}`;
}

// What each server does with validators, checked by hand with curl (Accept-Encoding: gzip)
// on the same configurations; the table above is measured on every run.
const NOTES = `
## What the servers do with validators

- **nginx**: the file's strong ETag \`"mtime-size"\` becomes weak (\`W/"…"\`) on a gzipped response. If-None-Match
  is compared weakly, so the W/ tag gets a 304, alone or with If-Modified-Since; revisit's verdicts say \`weak: true\`.
- **Apache (mod_deflate, DeflateAlterETag AddSuffix)**: a gzipped response's ETag is \`"size-mtime-gzip"\`.
  Sent back in If-None-Match it never matches: 200 with the full body. If-Modified-Since alone gets a 304, and so
  does the tag without \`-gzip\`, alone or with If-Modified-Since; If-None-Match \`"…-gzip"\` with If-Modified-Since
  gets a 200 (If-None-Match takes precedence). revisit's first probes of run 2 send both, see the 200 carry the ETag
  they sent, leave its body unread and ask again with If-None-Match alone (200) and the bare tag with
  If-Modified-Since (304): the most telling form that works, chosen over If-Modified-Since alone because the tag
  carries the size too, so a redeploy that keeps file times and changes sizes is still reported (a separate test
  redeploys 3 pages so; with If-Modified-Since alone all 3 were missed). No unchanged page is downloaded.
- **lighttpd (mod_deflate)**: appends \`-gzip\` to the ETag of a gzipped response too, but matches it: 304.
- **Caddy 2.6 (encode gzip)** and **h2o 2.2 (compress)**: keep the file's strong ETag on the gzipped response, the
  same tag as the identity one (a strong tag shared by two encodings); 304 to either validator or both.
- **Varnish in front of nginx**: passes nginx's weak ETag through and answers the client's conditional request
  itself. It is set to revalidate every request with nginx (ttl 0, keep 1m); with Varnish's default TTL (120 s)
  it would keep serving the old page after an edit, and run 3 would miss the edits.
- **Python http.server**: Last-Modified only (no ETag), no compression, so about 3.5 times the bytes; 304 when the
  file is not newer than If-Modified-Since (which it ignores when If-None-Match is present).
`;

export async function writeReport(file: string, results: readonly ServerResult[]): Promise<void> {
	await writeFile(file, renderReport(results));
}
