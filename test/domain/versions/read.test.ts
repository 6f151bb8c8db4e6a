import { describe, expect, it } from 'vitest';
import { RevisitError } from '../../../src/base/errors/index.js';
import { LevelStore } from '../../../src/store/level/store.js';
import { openStore } from '../../../src/store/open.js';
import { serveStore } from '../../../src/store/socket/serve.js';
import { pageVersions, versionText, versionTexts } from '../../../src/domain/versions/index.js';
import { tempDir } from '../../helpers/cli.js';
import { checkText } from '../../store/versions-contract.js';

const URL_A = 'https://a.example/page';

/** A LevelDB store on disk with two versions of URL_A, closed again. */
async function storeWithTwoVersions(dir: string): Promise<void> {
	const store = await LevelStore.open(dir);
	await checkText(store, URL_A, 'first text of the page', 1_000);
	await checkText(store, URL_A, 'second text of the page', 2_000);
	await store.close();
}

describe('pageVersions, versionText and versionTexts take a store directory or an opened store', () => {
	it('open a directory for the call and close it again, giving what the opened store gives', async () => {
		const { dir, cleanup } = await tempDir();
		try {
			await storeWithTwoVersions(dir);
			const byPath = await pageVersions(dir, URL_A);
			expect(byPath.map((version) => [version.n, version.reason])).toEqual([
				[2, 'new-body'],
				[1, 'new'],
			]);
			expect(await versionText(dir, URL_A, 1)).toBe('first text of the page');
			expect(await versionTexts(dir, URL_A, [1, 2])).toEqual(
				new Map([
					[1, 'first text of the page'],
					[2, 'second text of the page'],
				]),
			);
			// Closed after each call: the directory opens for writing again, and an opened store
			// is used as it is and left open for its owner.
			const store = await LevelStore.open(dir);
			try {
				expect(await pageVersions(store, URL_A)).toEqual(byPath);
				expect(await versionText(store, URL_A, 2)).toBe('second text of the page');
				expect((await store.getVersions([URL_A]))[0]).toBeDefined();
			} finally {
				await store.close();
			}
		} finally {
			await cleanup();
		}
	});

	it('read a directory a running watch holds through the watch, and make no store where there is none', async () => {
		const { dir, cleanup } = await tempDir();
		try {
			await storeWithTwoVersions(dir);
			const held = await LevelStore.open(dir);
			const server = await serveStore(dir, held);
			try {
				expect((await pageVersions(dir, URL_A)).map((version) => version.n)).toEqual([2, 1]);
				expect(await versionText(dir, URL_A, 1)).toBe('first text of the page');
			} finally {
				await server.close();
				await held.close();
			}
			await expect(pageVersions(`${dir}/none`, URL_A)).rejects.toMatchObject({ code: 'STORE_MISSING' });
		} finally {
			await cleanup();
		}
	});

	it('refuse what is neither with a RevisitError (USAGE) that says what they take', async () => {
		const wrong: unknown[] = [{}, { getVersions: 'no' }, 42, '', undefined, null];
		for (const store of wrong) {
			const error = await pageVersions(store as string, URL_A).catch((caught: unknown) => caught);
			expect(error).toBeInstanceOf(RevisitError);
			expect(error).toMatchObject({
				code: 'USAGE',
				message: expect.stringMatching(
					/^`store` (must be a store directory, a redis:\/\/ URL or an opened store|is empty: give a store directory or a redis:\/\/ URL)/,
				),
			});
		}
		await expect(versionText({} as string, URL_A, 1)).rejects.toMatchObject({
			code: 'USAGE',
			message: expect.stringContaining('got an object without getMany(), getHosts(), entries(), getTexts(), getVersions(), close()'),
		});
		await expect(pageVersions('.revisit', undefined as unknown as string)).rejects.toMatchObject({
			code: 'USAGE',
			message: expect.stringContaining('`url` must be'),
		});
		await expect(openStore(42 as unknown as string)).rejects.toMatchObject({ code: 'USAGE' });
	});
});
