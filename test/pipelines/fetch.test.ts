import { describe, expect, it } from 'vitest';
import { fetchDefaults, fetchOptions } from '../../src/pipelines/fetch.js';

describe('fetchOptions', () => {
	it("takes the fetch phase's limits unless given, and always GETs without audits", () => {
		const options = fetchOptions({ concurrency: undefined, perHost: undefined, method: 'head', trust: { auditRate: 0.5 } });
		expect(options).toMatchObject({
			concurrency: fetchDefaults.concurrency,
			perHost: fetchDefaults.perHost,
			method: 'get',
			highWater: fetchDefaults.highWater * 4,
		});
		expect(options.trust.auditRate).toBe(0);
		expect(fetchOptions({ concurrency: 9, perHost: 3, timeoutMs: 500 })).toMatchObject({ concurrency: 9, perHost: 3, timeoutMs: 500 });
	});
});
