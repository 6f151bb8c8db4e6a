import type { RunPoint } from './rows.js';

/** Text for SVG content and attribute values. */
export function escapeXml(text: string): string {
	return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&apos;');
}

const WIDTH = 720;
const PANEL = 240;
const MARGIN = { left: 64, right: 20, top: 40, bottom: 44 };
const num = (value: number): string => String(Math.round(value * 10) / 10);
const time = (ms: number): string => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

interface Panel {
	title: string;
	/** The y axis's name, written vertically beside it. */
	yLabel: string;
	top: number;
	/** y-axis ticks: value (0..1 of the plot height) and label. */
	ticks: Array<[number, string]>;
	body: (x: (i: number) => number, y: (fraction: number) => number, slot: number) => string[];
}

function panel(points: readonly RunPoint[], spec: Panel): string[] {
	const left = MARGIN.left;
	const right = WIDTH - MARGIN.right;
	const top = spec.top + MARGIN.top;
	const bottom = spec.top + PANEL - MARGIN.bottom;
	const slot = (right - left) / points.length;
	const x = (i: number) => left + slot * (i + 0.5);
	const y = (fraction: number) => bottom - fraction * (bottom - top);
	const out = [`<g class="panel">`, `<text x="${left}" y="${spec.top + 22}" class="title">${escapeXml(spec.title)}</text>`];
	for (const [fraction, label] of spec.ticks) {
		out.push(`<line x1="${left}" y1="${num(y(fraction))}" x2="${right}" y2="${num(y(fraction))}" class="grid"/>`);
		out.push(`<text x="${left - 6}" y="${num(y(fraction) + 4)}" text-anchor="end" class="tick">${escapeXml(label)}</text>`);
	}
	out.push(`<text transform="translate(16 ${(top + bottom) / 2}) rotate(-90)" text-anchor="middle" class="label">${escapeXml(spec.yLabel)}</text>`);
	out.push(...spec.body(x, y, slot));
	out.push(
		`<line x1="${left}" y1="${top}" x2="${left}" y2="${bottom}" class="axis"/>`,
		`<line x1="${left}" y1="${bottom}" x2="${right}" y2="${bottom}" class="axis"/>`,
	);
	out.push(`<text x="${left}" y="${bottom + 18}" class="tick">${escapeXml(time(points[0]!.startedAt))}</text>`);
	if (points.length > 1) out.push(`<text x="${right}" y="${bottom + 18}" text-anchor="end" class="tick">${escapeXml(time(points.at(-1)!.startedAt))}</text>`);
	out.push(
		`<text x="${(left + right) / 2}" y="${bottom + 36}" text-anchor="middle" class="label">run start (UTC), ` +
			`${points.length} run${points.length === 1 ? '' : 's'}</text>`,
		`</g>`,
	);
	return out;
}

const percent = (ratio: number): string => `${(ratio * 100).toFixed(1)}%`;

function ratioSummary(points: readonly RunPoint[]): string {
	const ratios = points.flatMap((point) => (point.ratio304 === null ? [] : [point.ratio304]));
	if (ratios.length === 0) return 'no conditional requests yet';
	const last = points.at(-1)!.ratio304;
	return `last ${last === null ? '-' : percent(last)}, min ${percent(Math.min(...ratios))}`;
}

/**
 * The run history as a standalone SVG document: a bar chart of changed URLs per run
 * above a line chart of the 304 ratio per run (304s per conditional request; the line
 * breaks where no conditional request was sent). Hand-written SVG, no dependency; each
 * bar and point has a <title> tooltip with its figures.
 *
 * @example
 * await writeFile('history.svg', renderSvg(runPoints(runs)))
 */
export function renderSvg(points: readonly RunPoint[], options: { title?: string } = {}): string {
	const height = PANEL * 2 + 24;
	const out = [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="12">`,
		`<title>${escapeXml(options.title ?? 'revisit history')}</title>`,
		'<style>.title{font-size:14px;' +
			'font-weight:bold}.tick{fill:#444}.label{fill:#666}.grid{stroke:#ddd}.axis{stroke:#333}.bar{fill:#3b78c2}.line{fill:none;stroke:#d2691e;' +
			'stroke-width:2}.dot{fill:#d2691e}</style>',
		`<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
	];
	if (points.length === 0) {
		out.push(`<text x="${WIDTH / 2}" y="${height / 2}" text-anchor="middle">No runs recorded</text>`, '</svg>');
		return `${out.join('\n')}\n`;
	}
	const max = Math.max(1, ...points.map((point) => point.changed));
	const half = Math.round(max / 2);
	out.push(
		...panel(points, {
			title: `Changed URLs per run (last ${points.at(-1)!.changed}, max ${Math.max(...points.map((point) => point.changed))})`,
			yLabel: 'URLs changed',
			top: 0,
			ticks: [[0, '0'], ...(half > 0 && half < max ? [[half / max, String(half)] as [number, string]] : []), [1, String(max)]],
			body: (x, y, slot) =>
				points.map((point, i) => {
					const width = Math.max(1, slot * 0.7);
					const top = y(point.changed / max);
					return (
						`<rect x="${num(x(i) - width / 2)}" y="${num(top)}" width="${num(width)}" height="${num(y(0) - top)}" class="bar"><title>` +
						`${escapeXml(`${time(point.startedAt)}: ${point.changed} changed`)}</title></rect>`
					);
				}),
		}),
	);
	out.push(
		...panel(points, {
			title: `304 ratio per run (${ratioSummary(points)})`,
			yLabel: '304 ratio',
			top: PANEL,
			ticks: [
				[0, '0%'],
				[0.5, '50%'],
				[1, '100%'],
			],
			body: (x, y) => {
				const lines: string[] = [];
				let run: string[] = [];
				const flush = () => {
					if (run.length > 1) lines.push(`<polyline points="${run.join(' ')}" class="line"/>`);
					run = [];
				};
				const dots = points.map((point, i) => {
					if (point.ratio304 === null) {
						flush();
						return '';
					}
					run.push(`${num(x(i))},${num(y(point.ratio304))}`);
					const label = `${time(point.startedAt)}: ${percent(point.ratio304)} 304`;
					return `<circle cx="${num(x(i))}" cy="${num(y(point.ratio304))}" r="3" class="dot"><title>${escapeXml(label)}</title></circle>`;
				});
				flush();
				return [...lines, ...dots.filter(Boolean)];
			},
		}),
	);
	out.push('</svg>');
	return `${out.join('\n')}\n`;
}
