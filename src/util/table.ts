/**
 * Renders rows as aligned columns for a terminal.
 *
 * @example
 * formatTable(['host', 'mode'], [['https://a', 'conditional']])
 */
export function formatTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
	const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)));
	const line = (cells: readonly string[]) =>
		cells
			.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!)))
			.join('  ')
			.trimEnd();
	return [line(header), ...rows.map(line)].join('\n') + '\n';
}
