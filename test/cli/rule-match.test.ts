import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjson, runCli, tempDir } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

// "match": "fusion-backpack" was read as a host name and matched nothing: the rule never
// applied, and nothing said so.
describe('a rule match that is a word without a dot', () => {
	let server: TestServer;
	let work: { dir: string; cleanup(): Promise<void> };
	beforeAll(async () => {
		server = await startServer((req, res) => {
			if (req.url === '/robots.txt') return void res.writeHead(404).end();
			res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><h1>Fusion backpack</h1><p class="price">$80</p><p>${Date.now()}</p></body></html>`);
		});
		work = await tempDir('revisit-rule-match-');
	});
	afterAll(async () => {
		await server.close();
		await work.cleanup();
	});

	it('is refused before anything is sent, naming the file, the rule and the field, with what to write', async () => {
		const rules = path.join(work.dir, 'rules.json');
		await writeFile(rules, '[\n  { "match": "shop.example", "select": [".price"] },\n  { "match": "fusion-backpack", "select": [".price"] }\n]\n');
		const before = server.requests.length;
		const run = await runCli(['sweep', '--store', path.join(work.dir, 'store'), '--rules', rules, server.url('/p/fusion-backpack')]);
		expect(run.status).toBe(2);
		expect(run.stderr).toContain(
			`revisit: ${rules}:3:14: /1/match: must be a hostname or a regular expression (got "fusion-backpack": a word without a dot reads as a host name`,
		);
		expect(run.stderr).toContain('write a regular expression, searched for anywhere in the URL: "/fusion-backpack" or "fusion-backpack$"');
		expect(server.requests.length).toBe(before);
		const checked = await runCli(['check', rules]);
		expect(checked.status).toBe(2);
		expect(checked.stderr).toContain(`${rules}:3:14: /1/match:`);
	});

	it('written as the message says, "/fusion-backpack", the rule applies', async () => {
		const rules = path.join(work.dir, 'fixed.json');
		await writeFile(rules, JSON.stringify([{ match: '/fusion-backpack', select: ['.price'] }]));
		const sweep = () =>
			runCli(['sweep', '--store', path.join(work.dir, 'fixed'), '--rules', rules, '--ndjson', '--all', '-q', '--audit', '0', server.url('/p/fusion-backpack')]);
		expect((await sweep()).status).toBe(0);
		// The clock on the page is outside .price: no change.
		expect(ndjson((await sweep()).stdout).map((verdict) => verdict.reason)).toEqual(['same-content']);
	});
});
