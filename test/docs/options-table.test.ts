import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sweepSettings } from '../../src/config/settings.js';
import { missingFromTables } from '../helpers/options-table.js';

describe("docs/1-usage.md's options tables", () => {
	it('list every setting of the sweep under its --help heading', () => {
		expect(missingFromTables(sweepSettings, readFileSync(new URL('../../docs/1-usage.md', import.meta.url), 'utf8'))).toEqual([]);
	});
});
