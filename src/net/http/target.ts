import type { UrlRecord } from '../../store/model/types.js';

/** A record from a live (2xx) answer: the only kind whose validators may be sent. */
export function liveRecord(record: UrlRecord | null | undefined): UrlRecord | undefined {
	return record && record.status >= 200 && record.status < 300 ? record : undefined;
}

/**
 * Where to send the probe: the URL itself, or the end of its redirect chain when every
 * hop of that chain was permanent last time.
 *
 * @example
 * probeTarget('http://a/', { permanent: true, finalUrl: 'https://a/', ... }) // 'https://a/'
 */
export function probeTarget(url: string, record: UrlRecord | null | undefined): string {
	const live = liveRecord(record);
	return live?.permanent && live.finalUrl ? live.finalUrl : url;
}
