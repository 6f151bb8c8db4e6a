import type { HostRecord } from '../../store/model/types.js';
import type { HostBook } from './book.js';

/** A host's URLs a sweep probed in a run, and how many of them it passed on as candidates (the churn guard's scale). */
type ChurnScale = Pick<NonNullable<HostRecord['candidateSweep']>, 'probed' | 'passedOn'>;

/**
 * Where a candidates sweep leaves its per-host figures (probed, passed on) for the
 * `revisit fetch` it feeds: that fetch is a separate process that opens the store once
 * the sweep has let go of it, so the host record is where it finds them.
 *
 * @example
 * tasks$.pipe(tally(rememberCandidateSweep(deps.book)))
 */
export function rememberCandidateSweep(book: HostBook): (origin: string, figures: ChurnScale) => void {
	return (origin, figures) => {
		const host = book.get(origin);
		book.set(origin, { ...host, candidateSweep: { at: host.lastRunAt, run: host.runs, ...figures } });
	};
}

/**
 * The figures a candidates sweep left, for hosts on which that sweep was the latest
 * run before this one; otherwise undefined (the guard then counts what it sees). The
 * book counted this run already, so the sweep's run is one before.
 *
 * @example
 * churnGuard({ ...options, scale: candidateSweepScale(deps.book) }, hooks)
 */
export function candidateSweepScale(book: HostBook): (origin: string) => ChurnScale | undefined {
	return (origin) => {
		const host = book.get(origin);
		const swept = host.candidateSweep;
		return swept && swept.run === host.runs - 1 ? { probed: swept.probed, passedOn: swept.passedOn } : undefined;
	};
}
