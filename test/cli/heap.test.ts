import { describe, expect, it } from 'vitest';
import { favourMemory, ranksWholeList } from '../../src/cli/heap.js';

describe('favourMemory', () => {
	const run = (execArgv: string[], nodeOptions?: string) => {
		const set: string[] = [];
		const did = favourMemory(['sweep', '--budget', '100000'], execArgv, nodeOptions, (flags) => set.push(flags));
		return { did, set };
	};

	it('has V8 favour memory when the user said nothing about the heap', () => {
		expect(run([], undefined)).toEqual({ did: true, set: ['--optimize-for-size'] });
		expect(run(['--enable-source-maps'], '--trace-warnings')).toEqual({ did: true, set: ['--optimize-for-size'] });
	});

	it.each([
		[['--max-old-space-size=4096'], undefined],
		[['--no-optimize-for-size'], undefined],
		[['--heap-growing-percent=50'], undefined],
		[[], '--enable-source-maps --max-old-space-size=8192'],
		[['--max_old_space_size=2048'], undefined],
	])('leaves the heap alone when the node flags %j or NODE_OPTIONS %j size it', (execArgv, nodeOptions) => {
		expect(run(execArgv, nodeOptions)).toEqual({ did: false, set: [] });
	});

	it('only for a run that ranks a whole list under a budget, or revisit due', () => {
		expect(ranksWholeList(['sweep', '--budget', '5'])).toBe(true);
		expect(ranksWholeList(['sweep', '--host-budget=2'])).toBe(true);
		expect(ranksWholeList(['due', '--store', 'x'])).toBe(true);
		expect(ranksWholeList(['sweep', '--budgets'])).toBe(false);
		expect(ranksWholeList(['sweep', '--concurrency', '8'])).toBe(false);
		const set: string[] = [];
		expect(favourMemory(['sweep'], [], undefined, (flags) => set.push(flags))).toBe(false);
		expect(set).toEqual([]);
	});
});
