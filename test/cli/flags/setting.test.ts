import { describe, expect, it } from 'vitest';
import { sweepSettings } from '../../../src/config/settings.js';
import { flagsOf, renamedFlags } from '../../../src/cli/flags/setting.js';

describe('flags from a settings table', () => {
	it('keep a renamed flag under its old name, hidden, with the same check', () => {
		const flags = flagsOf(sweepSettings) as Record<string, { hidden?: boolean; coerce?: (value: unknown) => unknown }>;
		expect(flags['host-rate']?.hidden).toBeUndefined();
		expect(flags['rate']?.hidden).toBe(true);
		expect(flags['rate']?.coerce?.('5')).toBe(5);
	});

	it("give the old name's value to the new one, unless it is given too, and say so once", () => {
		const lines: string[] = [];
		const stderr = { write: (text: string) => lines.push(text) };
		const args: Record<string, unknown> = { rate: 5 };
		renamedFlags(args, sweepSettings, 'sweep', stderr);
		expect(args['host-rate']).toBe(5);
		expect(lines).toEqual(['revisit: --rate is now --host-rate on sweep (requests per second per origin); --rate still works\n']);
		const both: Record<string, unknown> = { rate: 5, 'host-rate': 2 };
		renamedFlags(both, sweepSettings, 'crawl', stderr);
		expect(both['host-rate']).toBe(2);
		renamedFlags({ 'host-rate': 2 }, sweepSettings, 'sweep', stderr);
		expect(lines).toHaveLength(2);
	});
});
