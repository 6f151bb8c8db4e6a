import { RECORD_VERSION, type StoreOperation, type ValidatorStore } from './types.js';

/** One NDJSON line of a store dump. */
export type DumpLine =
	| { kind: 'meta'; format: number; exportedAt: string }
	| { kind: 'url'; key: string; value: unknown }
	| { kind: 'host'; key: string; value: unknown }
	| { kind: 'run'; key: string; value: unknown };

/**
 * Every record of a store as dump lines: a meta line, then URLs, hosts and runs.
 *
 * @example
 * for await (const line of dumpStore(store)) process.stdout.write(`${JSON.stringify(line)}\n`);
 */
export async function* dumpStore(store: ValidatorStore, now = new Date()): AsyncIterable<DumpLine> {
	yield { kind: 'meta', format: RECORD_VERSION, exportedAt: now.toISOString() };
	for await (const [key, value] of store.entries()) yield { kind: 'url', key, value };
	for await (const [key, value] of store.hostEntries()) yield { kind: 'host', key, value };
	for await (const [key, value] of store.runEntries()) yield { kind: 'run', key, value };
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
		return typeof format === 'number' && format <= RECORD_VERSION ? {} : { problem: `dump format ${JSON.stringify(format)} is newer than this revisit understands (${RECORD_VERSION})` };
	}
	if (typeof key !== 'string' || key === '') return { problem: 'no "key" string' };
	if (typeof value !== 'object' || value === null) return { problem: 'no "value" object' };
	const record = value as Record<string, unknown>;
	if (typeof record.v === 'number' && record.v > RECORD_VERSION) return { problem: `record format ${record.v} is newer than this revisit understands` };
	switch (kind) {
		case 'url':
			if (typeof record.status !== 'number' || typeof record.lastChecked !== 'number') return { problem: 'a url record needs numeric "status" and "lastChecked"' };
			return { operation: { type: 'put', key, value: record as never } };
		case 'host':
			if (typeof record.mode !== 'string') return { problem: 'a host record needs a "mode"' };
			return { operation: { type: 'putHost', key, value: record as never } };
		case 'run':
			if (typeof record.startedAt !== 'number') return { problem: 'a run record needs a numeric "startedAt"' };
			return { operation: { type: 'putRun', key, value: record as never } };
		default:
			return { problem: `unknown kind ${JSON.stringify(kind)} (expected meta, url, host or run)` };
	}
}
