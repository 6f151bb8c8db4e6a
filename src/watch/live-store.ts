import type { LiveRun } from '../pipelines/live-run.js';
import type { Delivery, HostRecord, RunDetail, RunRecord, TextBlob, UrlRecord, StoreReader, VersionLog } from '../store/model/types.js';

/**
 * The watch's store as its readers see it (the live report at `/`, and `revisit history`,
 * `report` and the rest through its socket): the store itself, with the hour under way
 * as a live row, its figures and changes as they stand now rather than as last written.
 * It does not own the store: `close` leaves it open.
 *
 * @example
 * let current: LiveRun | undefined;
 * const view = withLiveRun(store, () => current);
 */
export function withLiveRun(store: StoreReader, current: () => LiveRun | undefined): StoreReader {
	const live = (): LiveRun | undefined => {
		const run = current();
		return run && !run.ended ? run : undefined;
	};
	return {
		getMany: (keys: readonly string[]): Promise<Array<UrlRecord | undefined>> => store.getMany(keys),
		getHosts: (origins: readonly string[]): Promise<Array<HostRecord | undefined>> => store.getHosts(origins),
		entries: (): AsyncIterable<[string, UrlRecord]> => store.entries(),
		hostEntries: (): AsyncIterable<[string, HostRecord]> => store.hostEntries(),
		getTexts: (keys: readonly string[]): Promise<Array<TextBlob | undefined>> => store.getTexts(keys),
		textEntries: (): AsyncIterable<[string, TextBlob]> => store.textEntries(),
		getVersions: (keys: readonly string[]): Promise<Array<VersionLog | undefined>> => store.getVersions(keys),
		versionEntries: (): AsyncIterable<[string, VersionLog]> => store.versionEntries(),
		deliveryEntries: (target?: string): AsyncIterable<[string, Delivery]> => store.deliveryEntries(target),
		runEntries: (): AsyncIterable<[string, RunRecord]> => runsWithLive(store, live()),
		getRunDetails: async (keys: readonly string[]): Promise<Array<RunDetail | undefined>> => {
			const run = live();
			const stored = await store.getRunDetails(keys);
			return run === undefined ? stored : keys.map((key, i) => (key === run.key ? run.detail() : stored[i]));
		},
		close: async (): Promise<void> => {},
	};
}

/** The stored rows in key order, the live run's row (fresh, marked live) in its place. */
async function* runsWithLive(store: StoreReader, run: LiveRun | undefined): AsyncIterable<[string, RunRecord]> {
	let placed = run === undefined;
	for await (const [key, value] of store.runEntries()) {
		if (!placed && key >= run!.key) {
			placed = true;
			yield [run!.key, { ...run!.row(), live: true }];
			if (key === run!.key) continue;
		}
		yield [key, value];
	}
	if (!placed) yield [run!.key, { ...run!.row(), live: true }];
}
