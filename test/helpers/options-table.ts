import type { SettingTable } from '../../src/config/setting-row.js';

/**
 * The flags of a settings table that a docs page's options tables leave out: each must
 * begin a row's first cell (`| \`--flag …`, or after a comma in it) under the `###`
 * heading its --help heading names ("Requests:" is `### Requests`).
 *
 * @example
 * missingFromTables(sweepSettings, readFileSync('docs/1-usage.md', 'utf8')) // []
 */
export function missingFromTables(table: SettingTable, markdown: string): string[] {
	const sections = new Map<string, string>();
	for (const part of markdown.split(/^### /m).slice(1)) sections.set(part.slice(0, part.indexOf('\n')).trim(), part);
	return Object.entries(table)
		.filter(([flag, row]) => {
			const section = sections.get(row.group.replace(/:$/, '')) ?? '';
			const firstCells = section
				.split('\n')
				.filter((line) => line.startsWith('| `'))
				.map((line) => line.split(' | ')[0]!);
			return !firstCells.some((cell) => new RegExp(`(^\\| |, )\`--${flag}[\` ]`).test(cell));
		})
		.map(([flag]) => flag);
}
