import { blobFromJson, blobToJson } from './model/text-blob.js';
import { RECORD_VERSION, type StoreOperation, type StoreReader, type VersionLog } from './model/types.js';

/** One NDJSON line of a store dump. */
export type DumpLine =
	| { kind: 'meta'; format: number; exportedAt: string }
	| { kind: 'url'; key: string; value: unknown }
	| { kind: 'host'; key: string; value: unknown }
	| { kind: 'run'; key: string; value: unknown }
	| { kind: 'detail'; key: string; value: unknown }
	| { kind: 'text'; key: string; value: unknown }
	| { kind: 'versions'; key: string; value: unknown };

/**
 * Every record of a store as dump lines: a meta line, then URLs, hosts, runs, the runs'
 * details (what `revisit report` shows of them), the kept text blobs (the compressed
 * text in base64) and pages' version logs (the same way).
 *
 * @example
 * for await (const line of dumpStore(store)) process.stdout.write(`${JSON.stringify(line)}\n`);
 */
export async function* dumpStore(store: StoreReader, now = new Date()): AsyncIterable<DumpLine> {
	yield { kind: 'meta', format: RECORD_VERSION, exportedAt: now.toISOString() };
	for await (const [key, value] of store.entries()) yield { kind: 'url', key, value };
	for await (const [key, value] of store.hostEntries()) yield { kind: 'host', key, value };
	const runs: string[] = [];
	for await (const [key, value] of store.runEntries()) {
		runs.push(key);
		yield { kind: 'run', key, value };
	}
	for (let i = 0; i < runs.length; i += 100) {
		const keys = runs.slice(i, i + 100);
		const details = await store.getRunDetails(keys);
		for (const [j, value] of details.entries()) if (value !== undefined) yield { kind: 'detail', key: keys[j]!, value };
	}
	for await (const [key, value] of store.textEntries()) yield { kind: 'text', key, value: JSON.parse(blobToJson(value)) as unknown };
	for await (const [key, value] of store.versionEntries()) yield { kind: 'versions', key, value: JSON.parse(blobToJson(value)) as unknown };
}

/**
 * The store operation for one dump line, or why the line can't be loaded.
 *
 * @example
 * parseDumpLine('{"kind":"url","key":"https://a/","value":{"v":1,"status":200,"lastChecked":0}}')
 */
export function parseDumpLine(text: string): { operation?: StoreOperation; problem?: string } {
	let line: unknown;
	try {
		line = JSON.parse(text);
	} catch (error) {
		return { problem: `not JSON: ${(error as Error).message}` };
	}
	if (typeof line !== 'object' || line === null) return { problem: 'not a JSON object' };
	const { kind, key, value, format } = line as Record<string, unknown>;
	if (kind === 'meta') {
		return typeof format === 'number' && format <= RECORD_VERSION
			? {}
			: { problem: `dump format ${JSON.stringify(format)} is newer than this revisit understands (${RECORD_VERSION})` };
	}
	if (typeof key !== 'string' || key === '') return { problem: 'no "key" string' };
	if (typeof value !== 'object' || value === null) return { problem: 'no "value" object' };
	const record = value as Record<string, unknown>;
	if (typeof record.v === 'number' && record.v > RECORD_VERSION) return { problem: `record format ${record.v} is newer than this revisit understands` };
	switch (kind) {
		case 'url':
			if (typeof record.status !== 'number' || typeof record.lastChecked !== 'number')
				return { problem: 'a url record needs numeric "status" and "lastChecked"' };
			return { operation: { type: 'put', key, value: record as never } };
		case 'host':
			if (typeof record.mode !== 'string') return { problem: 'a host record needs a "mode"' };
			return { operation: { type: 'putHost', key, value: record as never } };
		case 'run':
			if (typeof record.startedAt !== 'number') return { problem: 'a run record needs a numeric "startedAt"' };
			// An export taken during a watch has its hour under way marked live: stored, it is an unfinished hour.
			return { operation: { type: 'putRun', key, value: (record.live === undefined ? record : liveAsStored(record)) as never } };
		case 'detail':
			if (typeof record.startedAt !== 'number' || !Array.isArray(record.changes)) return { problem: 'a run detail needs a numeric "startedAt" and "changes"' };
			return { operation: { type: 'putRunDetail', key, value: record as never } };
		case 'text':
			if (typeof record.z !== 'string' || typeof record.bytes !== 'number' || typeof record.at !== 'number')
				return { problem: 'a kept text needs "z" (base64), "bytes" and "at"' };
			return { operation: { type: 'putText', key, value: blobFromJson(JSON.stringify(record)) } };
		case 'versions':
			if (typeof record.z !== 'string' || typeof record.latest !== 'string' || typeof record.count !== 'number' || typeof record.oldest !== 'number')
				return { problem: 'a version log needs "z" (base64), "latest", "count" and "oldest"' };
			return { operation: { type: 'putVersions', key, value: blobFromJson<VersionLog>(JSON.stringify(record)) } };
		default:
			return { problem: `unknown kind ${JSON.stringify(kind)} (expected meta, url, host, run, detail, text or versions)` };
	}
}

/** A row exported live (read through a running watch), as it is stored: unfinished, not live. */
function liveAsStored(record: Record<string, unknown>): Record<string, unknown> {
	const { live: _live, ...stored } = record;
	return { ...stored, unfinished: true };
}
