import type { RunPoint } from './rows.js';

const EIGHTHS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

export interface TextChartOptions {
	/** Total width in columns, axis included (default 80). */
	width?: number;
	/** Rows of bars per chart (default 6). */
	height?: number;
}

/** A run's start time as an x-axis label: 'MM-DD HH:MM' in UTC. */
export function axisTime(ms: number): string {
	const iso = new Date(ms).toISOString();
	return `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
}

const formatPercent = (ratio: number): string => `${(ratio * 100).toFixed(ratio === 1 || ratio === 0 ? 0 : 1)}%`;

/**
 * One bar chart of `values` (null: no data, drawn as `·`) scaled to `max`, one column
 * per value, with eighth-block resolution, a y axis labelled with `top` and `bottom`,
 * and the first and last x labels under it.
 */
export function barChart(
	title: string,
	values: ReadonlyArray<number | null>,
	scale: { max: number; top: string; bottom: string },
	xLabels: { first: string; last: string },
	options: TextChartOptions = {},
): string {
	const width = Math.max(20, options.width ?? 80);
	const height = Math.max(1, options.height ?? 6);
	const axis = Math.max(scale.top.length, scale.bottom.length);
	const room = width - axis - 2;
	const column = Math.max(1, Math.min(3, Math.floor(room / Math.max(1, values.length))));
	const bar = column === 1 ? 1 : column - 1;
	const eighths = values.map((value) => {
		if (value === null) return null;
		if (value <= 0 || scale.max <= 0) return 0;
		return Math.max(1, Math.round((Math.min(value, scale.max) / scale.max) * height * 8));
	});
	const lines = [title];
	for (let row = height - 1; row >= 0; row--) {
		const label = row === height - 1 ? scale.top : row === 0 ? scale.bottom : '';
		const tick = row === height - 1 || row === 0 ? '┤' : '│';
		const cells = eighths.map((units) => {
			if (units === null) return (row === 0 ? '·' : ' ').repeat(bar).padEnd(column);
			const fill = Math.min(8, Math.max(0, units - row * 8));
			return (fill === 0 ? ' ' : EIGHTHS[fill - 1]!).repeat(bar).padEnd(column);
		});
		lines.push(`${label.padStart(axis)} ${tick}${cells.join('')}`.trimEnd());
	}
	const span = column * values.length;
	lines.push(`${' '.repeat(axis)} └${'─'.repeat(Math.max(1, span))}`);
	// First run's time under the first bar and last run's under the last, or both in a row when too narrow.
	const room2 = span - xLabels.first.length - xLabels.last.length;
	const under = values.length === 1 ? xLabels.last : room2 >= 1 ? `${xLabels.first}${' '.repeat(room2)}${xLabels.last}` : `${xLabels.first} … ${xLabels.last}`;
	lines.push(`${' '.repeat(axis + 2)}${under}`);
	return lines.join('\n');
}

/**
 * Two terminal charts of the run history: changed URLs per run, and the 304 ratio per
 * run (304s per conditional request; `·` where no conditional request was sent). Plain
 * text in block characters, fitting `width` columns; when there are more runs than
 * columns, the latest runs are drawn.
 *
 * @example
 * io.stdout.write(renderTextCharts(runPoints(runs)))
 */
export function renderTextCharts(points: readonly RunPoint[], options: TextChartOptions = {}): string {
	if (points.length === 0) return 'No runs to plot.\n';
	const width = Math.max(20, options.width ?? 80);
	// Axis labels take up to max(digits of the largest count, '100%') columns, plus ' ┤'.
	const fit = width - Math.max(4, String(Math.max(1, ...points.map((point) => point.changed))).length) - 2;
	const shown = points.slice(-fit);
	const scope = shown.length < points.length ? `last ${shown.length} of ${points.length} runs` : `${points.length} run${points.length === 1 ? '' : 's'}`;
	const xLabels = { first: axisTime(shown[0]!.startedAt), last: axisTime(shown.at(-1)!.startedAt) };
	const changed = shown.map((point) => point.changed);
	const max = Math.max(1, ...changed);
	const last = shown.at(-1)!;
	const ratios = shown.flatMap((point) => (point.ratio304 === null ? [] : [point.ratio304]));
	const ratioSummary =
		ratios.length === 0
			? 'no conditional requests yet'
			: `last ${last.ratio304 === null ? '-' : formatPercent(last.ratio304)}, min ${formatPercent(Math.min(...ratios))}`;
	// The same axis width for both charts, so that a run's two bars line up.
	const pad = (label: string) => label.padStart(Math.max(4, String(max).length));
	return [
		barChart(
			`Changed URLs per run (${scope}; last ${last.changed}, max ${Math.max(...changed)})`,
			changed,
			{ max, top: pad(String(max)), bottom: pad('0') },
			xLabels,
			options,
		),
		'',
		barChart(
			`304 ratio per run (${ratioSummary})`,
			shown.map((point) => point.ratio304),
			{ max: 1, top: pad('100%'), bottom: pad('0%') },
			xLabels,
			options,
		),
		'',
	].join('\n');
}
