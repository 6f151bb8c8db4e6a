import { describe, expect, it } from 'vitest';
import { newHostRecord } from '../../../src/net/hosts/record.js';
import { LevelStore } from '../../../src/store/level/store.js';
import { RECORD_VERSION, type UrlRecord } from '../../../src/store/model/types.js';
import { runCli, tempDir } from '../../helpers/cli.js';

const page = (learned: boolean): UrlRecord => ({
	v: RECORD_VERSION,
	status: 200,
	lastChecked: 1,
	content: { hash: 'ab'.repeat(16), rules: '-', noiseAt: 1 },
	...(learned && { learned: [{ at: 'html:p.t', since: 1 }] }),
});

describe('revisit noise forget', () => {
	it("drops one page's learned noise, or a host's and all its pages', and marks their hashes for a new baseline", async () => {
		const dir = await tempDir();
		try {
			const store = await LevelStore.open(dir.dir);
			const host = { ...newHostRecord(1), noise: [{ template: '/*', at: 'html:p.t', pages: ['a', 'b', 'c'], since: 1, applies: 1 }] };
			await store.batch([
				{ type: 'put', key: 'https://a.example/x', value: page(true) },
				{ type: 'put', key: 'https://a.example/y', value: page(true) },
				{ type: 'put', key: 'https://b.example/z', value: page(true) },
				{ type: 'putHost', key: 'https://a.example', value: host },
			]);
			await store.close();
			expect((await runCli(['noise', 'forget', 'https://a.example/x', '--store', dir.dir])).stderr).toContain('forgot the learned noise of 1 page\n');
			expect((await runCli(['noise', 'forget', 'a.example', '--store', dir.dir])).stderr).toContain('forgot the learned noise of 1 page and 1 host');
			const after = await LevelStore.open(dir.dir);
			const [x, y, z] = await after.getMany(['https://a.example/x', 'https://a.example/y', 'https://b.example/z']);
			expect([x!.learned, y!.learned, z!.learned]).toEqual([undefined, undefined, [{ at: 'html:p.t', since: 1 }]]);
			expect(x!.content!.rules).toBe('-, noise forgotten');
			expect((await after.getHosts(['https://a.example']))[0]!.noise).toBeUndefined();
			await after.close();
		} finally {
			await dir.cleanup();
		}
	});
});
