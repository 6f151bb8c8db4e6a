/** How late (schedule ms) an origin's claims may run before its threshold rises: an hour. */
const LATE_MS = 3_600_000;
/** The most an origin's threshold may be raised over μ. */
const MAX_FACTOR = 1000;
const STEP = 1.1;

/**
 * Per-origin thresholds for origins whose politeness binds (`--host-rate`, Crawl-delay:
 * a gap between requests): such an origin cannot take the checks μ gives its URLs, so
 * they fall late. Only those origins are fed here: lateness elsewhere is the global
 * rate's, which μ answers for (a watch's new URLs are all late while the rate works
 * through them). Each of its claims more than an hour late raises its own threshold (×1.1, so its
 * URLs' intervals lengthen to what it can serve); each on time lowers it again, back to
 * μ. This is the per-host multiplier of Kolobov et al. (SIGIR 2019) found by feedback.
 * Only raised origins are kept.
 *
 * @example
 * const hosts = createHostThresholds();
 * hosts.claimed('https://slow.example', 2 * 3_600_000);
 * hosts.factor('https://slow.example') // 1.1
 */
export function createHostThresholds(): { claimed(origin: string, lateMs: number): void; factor(origin: string): number } {
	const factors = new Map<string, number>();
	return {
		claimed(origin, lateMs) {
			const factor = factors.get(origin) ?? 1;
			if (lateMs > LATE_MS) factors.set(origin, Math.min(MAX_FACTOR, factor * STEP));
			else if (factor > 1) {
				const lower = factor / STEP;
				if (lower <= 1) factors.delete(origin);
				else factors.set(origin, lower);
			}
		},
		factor: (origin) => factors.get(origin) ?? 1,
	};
}
