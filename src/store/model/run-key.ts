/**
 * The key of a run row: its start time, zero-padded so keys sort by time.
 *
 * @example
 * runKey(1733140800000) // '0001733140800000'
 */
export function runKey(startedAt: number): string {
	return String(startedAt).padStart(16, '0');
}
