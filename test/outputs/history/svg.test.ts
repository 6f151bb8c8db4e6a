import { describe, expect, it } from 'vitest';
import type { RunPoint } from '../../../src/outputs/history/rows.js';
import { escapeXml, renderSvg } from '../../../src/outputs/history/svg.js';
import { T0 } from './fixtures.js';

const points: RunPoint[] = [
	{ startedAt: T0, changed: 40, ratio304: null },
	{ startedAt: T0 + 60_000, changed: 0, ratio304: 0.9 },
	{ startedAt: T0 + 120_000, changed: 7, ratio304: 0.5 },
	{ startedAt: T0 + 180_000, changed: 3, ratio304: null },
	{ startedAt: T0 + 240_000, changed: 1, ratio304: 1 },
];

describe('SVG charts', () => {
	it('draws one bar per run and the 304 ratio as a line broken where there is no ratio', () => {
		const svg = renderSvg(points, { title: 'revisit history of <a & b>' });
		expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="720"')).toBe(true);
		expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
		expect(svg).toContain('<title>revisit history of &lt;a &amp; b&gt;</title>');
		expect(svg.match(/class="bar"/g)).toHaveLength(5);
		expect(svg.match(/<circle /g)).toHaveLength(3);
		expect(svg.match(/<polyline /g)).toHaveLength(1);
		expect(svg).toContain('Changed URLs per run (last 1, max 40)');
		for (const tick of ['>0</text>', '>20</text>', '>40</text>', '>0%</text>', '>50%</text>', '>100%</text>']) expect(svg).toContain(tick);
		expect(svg).toContain('>2024-12-02 14:00</text>');
		expect(svg).toContain('>2024-12-02 14:04</text>');
		expect(svg).toContain('<title>2024-12-02 14:02: 7 changed</title>');
		expect(svg).toContain('<title>2024-12-02 14:01: 90.0% 304</title>');
		expect(svg).toContain('run start (UTC), 5 runs');
	});

	it('keeps bars inside the plot and scales them to the largest count', () => {
		const svg = renderSvg(points);
		const bars = [...svg.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" class="bar"/g)].map((m) => m.slice(1).map(Number));
		const heights = bars.map((bar) => bar[3]!);
		expect(heights[1]).toBe(0);
		expect(heights[0]).toBeCloseTo(156, 0);
		expect(heights[2]! / heights[0]!).toBeCloseTo(7 / 40, 2);
		for (const [x, , width] of bars) expect(x! + width!).toBeLessThanOrEqual(700);
	});

	it('escapes text and renders an empty history', () => {
		expect(escapeXml(`<"it's" & more>`)).toBe('&lt;&quot;it&apos;s&quot; &amp; more&gt;');
		expect(renderSvg([])).toContain('No runs recorded');
	});
});
