import type { Task, WireCapture } from '../../domain/task/types.js';
import type { UrlRecord } from '../../store/model/types.js';
import { warcDigest } from './digest.js';
import { recordId, warcDate, type WarcRecord } from './record.js';

const PROFILE = 'http://netpreserve.org/warc/1.1/revisit';
const CRLF2 = '\r\n\r\n';

/**
 * The WARC records one judged URL calls for, and where its payload is archived after them:
 *
 * - a body read whole (new, changed, audited, or unchanged but archived under another
 *   payload digest): a `request` and a `response` record, a new capture;
 * - a 200 whose payload digest is the one last archived: a `revisit` record, profile
 *   `identical-payload-digest`, referring to that capture;
 * - a 304: a `revisit` record, profile `server-not-modified`, with the validators it
 *   confirmed, referring to the last capture (when one is known: its digest is what lets
 *   a replay tool resolve the revisit).
 *
 * Block and payload digests are SHA-1 in base32 (`sha1:…`), what CDX indexers and pywb use.
 *
 * @example
 * const { records, archived } = recordsFor(task);
 */
export function recordsFor(task: Task): { records: WarcRecord[]; archived?: UrlRecord['warc'] } {
	const probe = task.verdict?.reason === 'audit' ? task.probe?.audit : task.probe;
	const wire = probe?.wire;
	const earlier = task.record?.warc;
	if (!probe || !wire || !task.next) return { records: [] };
	const date = warcDate(wire.at);
	const common: Array<[string, string]> = [['WARC-Target-URI', wire.url], ...(wire.ip ? [['WARC-IP-Address', wire.ip] as [string, string]] : [])];
	const headersOnly = Buffer.from(wire.response + CRLF2);
	if (probe.status === 304) {
		const confirmed: Array<[string, string]> = [
			...(probe.etag ? [['WARC-Etag', probe.etag] as [string, string]] : []),
			...(probe.lastModified ? [['WARC-Last-Modified', probe.lastModified] as [string, string]] : []),
		];
		return { records: [revisit('server-not-modified', common, headersOnly, date, earlier, confirmed)], archived: earlier };
	}
	if (probe.status < 200 || probe.status >= 300) return { records: [] };
	const payload = warcDigest(wire.body);
	if (earlier?.digest === payload) return { records: [revisit('identical-payload-digest', common, headersOnly, date, earlier, [])], archived: earlier };
	return { records: capture(wire, common, payload, date), archived: { digest: payload, date, uri: wire.url } };
}

function capture(wire: WireCapture, common: Array<[string, string]>, payload: string, date: string): WarcRecord[] {
	const responseId = recordId();
	const response: WarcRecord = {
		type: 'response',
		id: responseId,
		date,
		headers: [...common, ['WARC-Payload-Digest', payload]],
		contentType: 'application/http; msgtype=response',
		block: Buffer.concat([Buffer.from(wire.response + CRLF2), wire.body]),
	};
	const request: WarcRecord = {
		type: 'request',
		date,
		headers: [...common, ['WARC-Concurrent-To', responseId]],
		contentType: 'application/http; msgtype=request',
		block: Buffer.from(wire.request + CRLF2),
	};
	return [request, response];
}

function revisit(
	profile: string,
	common: Array<[string, string]>,
	block: Buffer,
	date: string,
	earlier: UrlRecord['warc'],
	extra: Array<[string, string]>,
): WarcRecord {
	const refers: Array<[string, string]> = earlier
		? [
				['WARC-Payload-Digest', earlier.digest],
				['WARC-Refers-To-Target-URI', earlier.uri],
				['WARC-Refers-To-Date', earlier.date],
			]
		: [];
	return {
		type: 'revisit',
		date,
		headers: [...common, ['WARC-Profile', `${PROFILE}/${profile}`], ...refers, ...extra],
		contentType: 'application/http; msgtype=response',
		block,
	};
}
