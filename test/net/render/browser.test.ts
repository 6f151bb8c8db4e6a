import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BROWSER_ARGS, checkBrowser, launchBrowser } from '../../../src/net/render/browser.js';
import { RenderError } from '../../../src/net/render/errors.js';
import { CHROMIUM } from '../../helpers/browser.js';
import { describeNeeding } from '../../helpers/debian.js';

describe('checkBrowser', () => {
	it('passes an executable and refuses a missing or non-executable path with NO_BROWSER', () => {
		expect(() => checkBrowser(process.execPath)).not.toThrow();
		const dir = mkdtempSync(path.join(tmpdir(), 'revisit-browser-'));
		const plain = path.join(dir, 'chromium');
		writeFileSync(plain, '');
		chmodSync(plain, 0o644);
		for (const where of ['/nowhere/chromium', plain, dir]) {
			const error = (() => {
				try {
					checkBrowser(where);
				} catch (caught) {
					return caught;
				}
			})();
			expect(error).toBeInstanceOf(RenderError);
			expect(error).toMatchObject({ code: 'NO_BROWSER', message: expect.stringContaining(where) });
		}
	});
});

describeNeeding(CHROMIUM, 'launchBrowser, Debian chromium', () => {
	it('keeps one context per origin, and tells when the browser is killed', async () => {
		let lost = 0;
		const live = await launchBrowser(CHROMIUM.path!, BROWSER_ARGS, () => lost++);
		try {
			expect(live.pid).toBeTypeOf('number');
			expect(() => process.kill(live.pid!, 0)).not.toThrow();
			const a = await live.context('http://127.0.0.1:8001');
			const again = await live.context('http://127.0.0.1:8001');
			const b = await live.context('http://localhost:8001');
			expect(again.context).toBe(a.context);
			expect(b.context).not.toBe(a.context);
			for (const held of [a, again, b]) held.release();
			live.kill();
			while (!live.lost) await new Promise((resolve) => setTimeout(resolve, 20));
			expect([lost, live.browser.isConnected()]).toEqual([1, false]);
		} finally {
			await live.close();
		}
	});

	it('closes the least recently used idle context past 16 origins, never one with a page open', async () => {
		const live = await launchBrowser(CHROMIUM.path!, BROWSER_ARGS, () => {});
		try {
			const busy = await live.context('http://127.0.0.1:9000');
			const first = await live.context('http://127.0.0.1:9001');
			first.release();
			for (let port = 9002; port <= 9017; port++) (await live.context(`http://127.0.0.1:${port}`)).release();
			await expect(first.context.newPage()).rejects.toThrow();
			const page = await busy.context.newPage();
			expect(page.isClosed()).toBe(false);
			busy.release();
		} finally {
			await live.close();
		}
	});

	it('does not count a close it was asked for as lost', async () => {
		let lost = 0;
		const live = await launchBrowser(CHROMIUM.path!, BROWSER_ARGS, () => lost++);
		await live.close();
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect([lost, live.lost]).toEqual([0, false]);
	});
});
