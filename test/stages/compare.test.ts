import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { compare } from '../../src/stages/compare.js';
import { maskedHash } from '../../src/domain/content/noise.js';
import { hashText } from '../../src/domain/content/content-hash.js';
import { RECORD_VERSION, type HostNoise, type UrlRecord } from '../../src/store/model/types.js';
import type { ProbeResult, Task } from '../../src/domain/task/types.js';

const url = 'https://example.org/a';
const now = 1_700_000_000_000;
const stored: UrlRecord = {
	v: RECORD_VERSION,
	status: 200,
	etag: 'W/"1"',
	lastModified: 'Mon, 01 Jan 2024 00:00:00 GMT',
	hash: 'h1',
	size: 100,
	encoding: 'gzip',
	lastChecked: 1,
};
const result = (fields: Partial<ProbeResult>): ProbeResult => ({ status: 200, finalUrl: url, permanent: false, bytes: 10, ms: 5, ...fields });

describe('compare', () => {
	it('judges probed tasks, flags a 304 to a weak ETag that was sent, and passes others through', async () => {
		const probed: Task = {
			line: 1,
			input: url,
			url,
			record: stored,
			plan: { sendEtag: true, sendLastModified: false, audit: false, retest: false },
			probe: result({ status: 304 }),
		};
		const notSent: Task = { ...probed, line: 2, plan: { ...probed.plan!, sendEtag: false } };
		const skipped: Task = { line: 3, input: 'x', skip: 'rejected', problem: 'bad' };
		const [a, b, c] = await lastValueFrom(from([probed, notSent, skipped]).pipe(compare({ acceptEncoding: 'gzip' }, { now: () => now }), toArray()));
		expect(a!.verdict).toMatchObject({ reason: '304', weak: true });
		expect(b!.verdict).not.toHaveProperty('weak');
		expect(c).toEqual(skipped);
		expect(c!.verdict).toBeUndefined();
	});
});

describe('compare under learned noise', () => {
	const html = (ad: string, price = 5) => `<main><p class="price">$${price}</p><aside class="ad">${ad}</aside></main>`;
	const AD = 'html:main>aside.ad';
	const host: HostNoise[] = [{ template: '/*', at: AD, pages: ['a', 'b', 'c'], since: 10, applies: 20 }];
	const judgeText = async (record: UrlRecord, text: string, hostNoise: HostNoise[] | undefined) => {
		const task: Task = {
			line: 1,
			input: url,
			url,
			origin: 'https://example.org',
			record,
			probe: result({ hash: hashText(text), content: { hash: hashText(text), rules: '-', text } }),
		};
		const [out] = await lastValueFrom(from([task]).pipe(compare({ acceptEncoding: 'gzip', hostNoise: () => hostNoise }, { now: () => now }), toArray()));
		return out!;
	};
	const page = (over: Partial<UrlRecord>): UrlRecord => ({ v: RECORD_VERSION, status: 200, hash: 'raw', lastChecked: 1, ...over });

	it("leaves out the page's own places and its host's, and reports a change outside them", async () => {
		const record = page({ learned: [{ at: AD, since: 5 }], content: { hash: maskedHash(html('Gym offer'), [AD]), rules: '-', noiseAt: 6 } });
		expect((await judgeText(record, html('<b>Cheap</b> flights'), undefined)).verdict).toMatchObject({ changed: false, reason: 'same-content' });
		expect((await judgeText(record, html('<b>Cheap</b> flights', 6), undefined)).verdict).toMatchObject({ changed: true, reason: 'new-body' });
	});

	it(
		'judges a hash by the noise it was taken under: a host place that newly applies is a rebaseline, ' +
			'not a change, when the page differs under the old noise',
		async () => {
			// Stored before the host's place applied (noiseAt 15 < 20): the ad was counted then.
			const record = page({ content: { hash: hashText(html('Gym offer')), rules: '-', noiseAt: 15 } });
			const same = await judgeText(record, html('Gym offer'), host);
			expect(same.verdict).toMatchObject({ changed: false, reason: 'same-content' });
			expect(same.next!.content).toMatchObject({ hash: maskedHash(html('Gym offer'), [AD]), noiseAt: now });
			expect((await judgeText(record, html('Cheap flights'), host)).verdict).toMatchObject({ changed: false, reason: 'rebaseline' });
			// Without the host's place, the rotated ad is a change.
			expect((await judgeText(record, html('Cheap flights'), undefined)).verdict).toMatchObject({ changed: true, reason: 'new-body' });
		},
	);
});
