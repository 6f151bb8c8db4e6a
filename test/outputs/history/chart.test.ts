import { describe, expect, it } from 'vitest';
import { axisTime, barChart, renderTextCharts } from '../../../src/outputs/history/chart.js';
import type { RunPoint } from '../../../src/outputs/history/rows.js';
import { T0 } from './fixtures.js';

const points = (changes: number[], ratios: Array<number | null>): RunPoint[] =>
	changes.map((changed, i) => ({ startedAt: T0 + i * 3_600_000, changed, ratio304: ratios[i] ?? null }));

describe('terminal charts', () => {
	it('draws bars in eighth blocks on a labelled axis', () => {
		const chart = barChart('t', [0, 2, 4, 8, null], { max: 8, top: '8', bottom: '0' }, { first: 'A', last: 'B' }, { height: 2, width: 40 });
		expect(chart.split('\n')).toEqual(['t', '8 ┤         ██', '0 ┤   ▄▄ ██ ██ ··', '  └───────────────', '   A             B']);
	});

	it('shows a tiny non-zero value as the lowest block, never as nothing', () => {
		expect(barChart('t', [1, 1000], { max: 1000, top: '1000', bottom: '0' }, { first: 'A', last: 'B' }, { height: 1 })).toContain('0 ┤▁▁ ██');
	});

	it('charts changed URLs and the 304 ratio with the figures in the titles', () => {
		const text = renderTextCharts(points([10, 0, 2], [null, 1, 0.8]));
		expect(text).toContain('Changed URLs per run (3 runs; last 2, max 10)');
		expect(text).toContain('304 ratio per run (last 80.0%, min 80.0%)');
		expect(text).toContain('  10 ┤██');
		expect(text).toContain('100% ┤   ██\n     │   ██ ▆▆\n');
		expect(text).toContain('  0% ┤·· ██ ██');
		expect(text).toContain(`${axisTime(T0)} … ${axisTime(T0 + 2 * 3_600_000)}`);
		expect(axisTime(T0)).toBe('12-02 14:00');
	});

	it('fits 80 columns, drawing the latest runs when there are more runs than columns', () => {
		const many = points(
			Array.from({ length: 500 }, (_, i) => (i * 37) % 1000),
			Array.from({ length: 500 }, (_, i) => (i % 7) / 6),
		);
		const text = renderTextCharts(many);
		expect(text).toContain('last 74 of 500 runs');
		for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
		const wide = renderTextCharts(points([1, 2, 3, 4], [0.5, 0.5, 0.5, 0.5]), { width: 50 });
		for (const line of wide.split('\n')) expect(line.length).toBeLessThanOrEqual(50);
		expect(wide).toContain('12-02 14:00');
		expect(wide).toContain('12-02 17:00');
	});

	it('says when there is nothing to draw', () => {
		expect(renderTextCharts([])).toBe('No runs to plot.\n');
		expect(renderTextCharts(points([5], [null]))).toContain('no conditional requests yet');
	});
});
