import { describe, expect, it } from 'vitest';
import { favourMemory } from '../../src/cli/heap.js';

describe('favourMemory', () => {
	const run = (execArgv: string[], nodeOptions?: string) => {
		const set: string[] = [];
		const did = favourMemory(execArgv, nodeOptions, (flags) => set.push(flags));
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
});
