const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * Parses a duration such as `30m`, `6h`, `2d`, `1h30m` into milliseconds; `undefined`
 * when the text is not one.
 *
 * @example
 * parseDuration('1h30m') // 5400000
 */
export function parseDuration(text: string): number | undefined {
	const trimmed = text.trim().toLowerCase();
	if (!/^(\d+(\.\d+)?(ms|s|m|h|d|w))+$/.test(trimmed)) return undefined;
	let total = 0;
	for (const [, amount, unit] of trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)) total += Number(amount) * UNITS[unit!]!;
	return total > 0 ? Math.round(total) : undefined;
}

/** The shortest readable form of a duration in ms, for messages. */
export function formatDuration(ms: number): string {
	for (const unit of ['w', 'd', 'h', 'm', 's'] as const) {
		const size = UNITS[unit]!;
		if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
	}
	return `${ms}ms`;
}
