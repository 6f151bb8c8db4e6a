import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';

// The headings a run command's --help shows, in this order; yargs' own Options: (help, version) comes last.
const GROUPS = [
	'Input and output:',
	'Requests:',
	'Politeness and access:',
	'Trust and verification:',
	'Schedule and budget:',
	'Content and noise:',
	'Feeds and archives:',
	'Scale:',
];

interface Help {
	headings: string[];
	/** Option name (without --) → the heading it is listed under. */
	groupOf: Map<string, string>;
	examples: string[];
}

/** Reads the built CLI's help text as a reader scans it: headings, and the flags under each. */
async function help(command: string): Promise<Help> {
	const { status, stdout, stderr } = await spawnCli([command, '--help'], '').done;
	expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
	const headings: string[] = [];
	const groupOf = new Map<string, string>();
	const examples: string[] = [];
	for (const line of stdout.split('\n')) {
		if (/^\S.*:$/.test(line) && !line.startsWith('revisit ')) headings.push(line);
		const heading = headings.at(-1);
		const flag = /^\s+(?:-\w, )?--([\w-]+)\s/.exec(line)?.[1];
		if (flag !== undefined && heading !== undefined) groupOf.set(flag, heading);
		if (heading === 'Examples:' && line.startsWith('  revisit ')) examples.push(line.trim());
	}
	return { headings, groupOf, examples };
}

describe('--help of the run commands', () => {
	it('sweep shows every group, in order, between its positionals and yargs’ own options', async () => {
		const { headings } = await help('sweep');
		expect(headings.slice(0, 11)).toEqual(['Positionals:', ...GROUPS, 'Options:', 'Examples:']);
	});

	it.each(['sweep', 'fetch', 'crawl', 'run'])('%s lists each flag under a named group, the groups in order', async (command) => {
		const { headings, groupOf, examples } = await help(command);
		const shown = headings.filter((heading) => GROUPS.includes(heading));
		expect(shown.length).toBeGreaterThan(0);
		expect(shown).toEqual(GROUPS.filter((group) => shown.includes(group)));
		const ungrouped = [...groupOf].filter(([, heading]) => !GROUPS.includes(heading)).map(([flag]) => flag);
		expect(ungrouped.sort()).toEqual(['help', 'version']);
		expect(examples.length).toBeGreaterThanOrEqual(2);
	});

	it('puts flags where a reader looks for them', async () => {
		const sweep = (await help('sweep')).groupOf;
		expect(sweep.get('store')).toBe('Input and output:');
		expect(sweep.get('ndjson')).toBe('Input and output:');
		expect(sweep.get('timeout')).toBe('Requests:');
		expect(sweep.get('robots')).toBe('Politeness and access:');
		expect(sweep.get('header')).toBe('Politeness and access:');
		expect(sweep.get('verify-every')).toBe('Trust and verification:');
		expect(sweep.get('budget')).toBe('Schedule and budget:');
		expect(sweep.get('select')).toBe('Content and noise:');
		expect(sweep.get('warc')).toBe('Feeds and archives:');
		expect(sweep.get('webhook')).toBe('Feeds and archives:');
		expect(sweep.get('workers')).toBe('Scale:');
		expect(sweep.get('concurrency')).toBe('Scale:');
		const crawl = (await help('crawl')).groupOf;
		expect(crawl.get('out')).toBe('Input and output:');
		expect(crawl.get('diff')).toBe('Input and output:');
		expect(crawl.get('fetch-concurrency')).toBe('Scale:');
		expect((await help('run')).groupOf.get('set')).toBe('Input and output:');
	});
});
