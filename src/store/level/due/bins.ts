import { RATE_BINS } from '../../model/due.js';
import { put, type Op, type Place, type Sub } from './keys.js';

const BINS = 'bins';
/**
 * Present while a process has changed the histogram since it was last written: a schedule
 * opened with it there was not closed (kill -9), and its histogram is counted again.
 */
const OPEN = 'binsOpen';

/**
 * The schedule's rate histogram (URLs per `rateBin`), kept in memory and written when the
 * schedule is closed, not with every write: 140 numbers in every batch were about a
 * kilobyte written per check (bench/WATCH-SPEED.md). While it differs from what is
 * written, a marker says so, written once with the first change; a schedule opened with
 * the marker there (its process was killed) counts its URLs again.
 *
 * @example
 * const bins = await RateBins.open(meta, urls);
 * bins.add(rateBin(0.2), 1);
 * await db.batch([...ops, ...bins.changed()]);
 */
export class RateBins {
	readonly counts: number[];
	readonly #meta: Sub<unknown>;
	/** Whether the marker is written (or in a batch on its way). */
	#open = false;

	private constructor(meta: Sub<unknown>, counts: number[]) {
		this.#meta = meta;
		this.counts = counts;
	}

	/** The histogram as written, or counted from every URL's place when its last writer did not close the schedule. */
	static async open(meta: Sub<unknown>, urls: Sub<Place>): Promise<RateBins> {
		const [written, open] = await meta.getMany([BINS, OPEN]);
		if (open === undefined && Array.isArray(written) && written.length === RATE_BINS) return new RateBins(meta, written as number[]);
		const counts = new Array<number>(RATE_BINS).fill(0);
		if (open === undefined && written === undefined) return new RateBins(meta, counts);
		const places = urls.values();
		try {
			for (let got = await places.nextv(1000); got.length > 0; got = await places.nextv(1000)) for (const place of got) counts[place.b]!++;
		} finally {
			await places.close();
		}
		const bins = new RateBins(meta, counts);
		await meta.batch([
			{ type: 'put', key: BINS, value: counts },
			{ type: 'del', key: OPEN },
		]);
		return bins;
	}

	add(bin: number, count: number): void {
		this.counts[bin]! += count;
	}

	/** What to write with a batch that changed the histogram: the marker, the first time since it was last written. */
	changed(): Op[] {
		if (this.#open) return [];
		this.#open = true;
		return [put(this.#meta, OPEN, 1)];
	}

	/** Writes the histogram and takes the marker away (the schedule is closing). */
	async close(): Promise<void> {
		if (!this.#open) return;
		await this.#meta.batch([
			{ type: 'put', key: BINS, value: this.counts },
			{ type: 'del', key: OPEN },
		]);
		this.#open = false;
	}

	/** After a failed write: the marker may not be there. */
	reset(): void {
		this.#open = false;
	}
}
