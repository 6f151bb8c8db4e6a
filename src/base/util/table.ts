import { visibleLine } from './visible.js';

/**
 * Renders rows as aligned columns for a terminal. A cell is one line, made visible
 * (`visibleLine`: a page's ETag or offer may hold control characters) before it is measured.
 *
 * @example
 * formatTable(['host', 'mode'], [['https://a', 'conditional']])
 */
export function formatTable(titles: readonly string[], cells: ReadonlyArray<readonly string[]>): string {
	const header = titles.map(visibleLine);
	const rows = cells.map((row) => row.map(visibleLine));
	const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)));
	const line = (cells: readonly string[]) =>
		cells
			.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!)))
			.join('  ')
			.trimEnd();
	return [line(header), ...rows.map(line)].join('\n') + '\n';
}
