import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCookieFile, writeCookieFile } from '../../../src/net/http/cookies.js';
import { tempDir } from '../../helpers/cli.js';

let dir: { dir: string; cleanup(): Promise<void> };
beforeEach(async () => (dir = await tempDir('revisit-cookies-')));
afterEach(async () => dir.cleanup());

const NOW = Date.now();
const future = String(Math.floor(NOW / 1000) + 86_400);

const file = async (lines: string[][]): Promise<string> => {
	const name = path.join(dir.dir, 'cookies.txt');
	await writeFile(name, ['# Netscape HTTP Cookie File', ...lines.map((fields) => fields.join('\t')), ''].join('\n'));
	return name;
};

describe('Netscape cookies.txt', () => {
	it('sends each cookie where RFC 6265 allows it: domain, host-only, path, secure, expiry', async () => {
		const jar = await readCookieFile(
			await file([
				['.example.org', 'TRUE', '/', 'FALSE', future, 'wide', '1'],
				['only.example.net', 'FALSE', '/', 'FALSE', '0', 'host', '2'],
				['example.org', 'FALSE', '/admin', 'TRUE', future, 'admin', '3'],
				['#HttpOnly_example.org', 'FALSE', '/', 'FALSE', '1', 'expired', '4'],
			]),
			undefined,
			NOW,
		);
		const cookies = (url: string) => jar.getCookieString(url);
		expect(await cookies('http://www.example.org/')).toBe('wide=1');
		expect(await cookies('http://example.com/')).toBe('');
		expect(await cookies('http://only.example.net/')).toBe('host=2');
		expect(await cookies('http://sub.only.example.net/')).toBe('');
		expect(await cookies('http://example.org/admin/x')).toBe('wide=1');
		expect(await cookies('https://example.org/admin/x')).toBe('admin=3; wide=1');
	});

	it('refuses a line that is not seven fields, naming the file and line', async () => {
		await expect(readCookieFile(await file([['example.org', 'FALSE', '/']]))).rejects.toThrow(/cookies\.txt line 2: expected 7 tab-separated fields/);
	});

	it('writes back what it read in the same format, readable by its owner only', async () => {
		const from = await file([
			['.example.org', 'TRUE', '/', 'TRUE', future, 'wide', 'a b'],
			['#HttpOnly_host.example', 'FALSE', '/p', 'FALSE', '0', 'h', 'x'],
		]);
		const jar = await readCookieFile(from, undefined, NOW);
		const to = path.join(dir.dir, 'out.txt');
		await writeCookieFile(to, jar, NOW);
		const lines = (await readFile(to, 'utf8')).split('\n').filter((line) => line !== '' && !line.startsWith('# '));
		expect(lines.sort()).toEqual(
			[
				['#HttpOnly_host.example', 'FALSE', '/p', 'FALSE', '0', 'h', 'x'].join('\t'),
				['.example.org', 'TRUE', '/', 'TRUE', future, 'wide', 'a b'].join('\t'),
			].sort(),
		);
		const { stat } = await import('node:fs/promises');
		expect((await stat(to)).mode & 0o777).toBe(0o600);
	});
});
