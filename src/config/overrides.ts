import { UsageError } from '../base/errors/index.js';
import { pipelineSchema, STAGE_ORDER } from './schema.js';
import { nearest } from '../base/util/suggest.js';

/** Each stage option's stage: option names are unique across stages, as the CLI's flags are. */
export const OPTION_STAGE: ReadonlyMap<string, string> = new Map(
	pipelineSchema.properties.stages.items.oneOf.flatMap((stage) =>
		Object.keys(stage.properties)
			.filter((key) => key !== 'use')
			.map((key) => [key, stage.properties.use.const] as const),
	),
);

const TOP_KEYS = Object.keys(pipelineSchema.properties);

/** The overridden config, and which `--set` created an object or wrote a key, for error messages. */
export interface Overridden {
	config: unknown;
	setBy(container: object, key?: string): string | undefined;
}

/**
 * Applies `--set key.path=value` overrides to a parsed pipeline, before it is validated
 * (so an override is checked like the file). The path is dot-separated keys and array
 * indices; under `stages` a stage's name stands for its entry (added in its place in
 * the order when missing); a bare option name (`concurrency`) means that option of its
 * stage. The value is JSON when it parses as JSON (`8`, `true`, `["a"]`), else a string
 * (`6h`, `auto`); quote it to force a string (`'userAgent="123"'`).
 *
 * @example
 * applyOverrides(config, ['concurrency=8', 'ttl=6h', 'sinks.0.when=all', 'store.path=/var/lib/revisit'])
 */
export function applyOverrides(config: unknown, sets: readonly string[]): Overridden {
	if (sets.length === 0) return { config, setBy: () => undefined };
	if (!isObject(config) || Array.isArray(config)) throw new UsageError('--set needs the pipeline to be a JSON object');
	const root = config as Record<string, unknown>;
	const created = new WeakMap<object, string>();
	const written = new WeakMap<object, Map<string, string>>();
	for (const text of sets) {
		const label = `--set ${text}`;
		const equals = text.indexOf('=');
		if (equals <= 0) throw new UsageError(`${label}: expected key.path=value, e.g. --set concurrency=8`);
		const value = parseValue(text.slice(equals + 1));
		let segments = text.slice(0, equals).trim().split('.');
		if (segments.length === 1 && !TOP_KEYS.includes(segments[0]!)) {
			const stage = OPTION_STAGE.get(segments[0]!);
			if (!stage) {
				const near = nearest(segments[0]!, [...TOP_KEYS, ...OPTION_STAGE.keys()]);
				throw new UsageError(
					`${label}: ${segments[0]} is neither a pipeline key (${TOP_KEYS.join(', ')}) nor a stage option${near ? ` (did you mean \`${near}\`?)` : ''}`,
				);
			}
			segments = ['stages', stage, segments[0]!];
		}
		let container: object = root;
		for (const [i, segment] of segments.entries()) {
			const last = i === segments.length - 1;
			const key = Array.isArray(container) ? indexIn(container, segment, segments, i, created, label) : segment;
			if (last) {
				(container as Record<string, unknown>)[key] = value;
				if (!written.has(container)) written.set(container, new Map());
				written.get(container)!.set(key, label);
				break;
			}
			const next = (container as Record<string, unknown>)[key];
			if (next === undefined) {
				const fresh = segment === 'stages' && i === 0 ? [] : {};
				created.set(fresh, label);
				(container as Record<string, unknown>)[key] = fresh;
				container = fresh;
			} else if (isObject(next)) {
				container = next;
			} else {
				throw new UsageError(`${label}: ${segments.slice(0, i + 1).join('.')} is ${JSON.stringify(next)}, not an object or list; set it whole instead`);
			}
		}
	}
	return {
		config: root,
		setBy: (container, key) => (key === undefined ? created.get(container) : written.get(container)?.get(key)),
	};
}

/** The index a path segment names in an array: a number, or under `stages` a stage's name. */
function indexIn(array: unknown[], segment: string, segments: string[], i: number, created: WeakMap<object, string>, label: string): string {
	if (/^\d+$/.test(segment)) {
		const index = Number(segment);
		if (index > array.length) throw new UsageError(`${label}: ${segments.slice(0, i).join('.')} has ${array.length} entries; ${segment} is past the end`);
		return segment;
	}
	if (segments[0] !== 'stages' || i !== 1)
		throw new UsageError(`${label}: ${segments.slice(0, i).join('.')} is a list: index it by number, e.g. ${segments.slice(0, i).join('.')}.0`);
	const found = array.findIndex((stage) => isObject(stage) && (stage as { use?: unknown }).use === segment);
	if (found >= 0) return String(found);
	const order = STAGE_ORDER.indexOf(segment as (typeof STAGE_ORDER)[number]);
	if (order < 0) {
		const near = nearest(segment, STAGE_ORDER);
		throw new UsageError(
			`${label}: unknown stage ${JSON.stringify(segment)}; stages are ${STAGE_ORDER.join(', ')}${near ? ` (did you mean \`${near}\`?)` : ''}`,
		);
	}
	const stage = { use: segment };
	created.set(stage, label);
	const before = array.findIndex((other) => STAGE_ORDER.indexOf((other as { use?: never })?.use as never) > order);
	const at = before < 0 ? array.length : before;
	array.splice(at, 0, stage);
	return String(at);
}

function parseValue(raw: string): unknown {
	try {
		return JSON.parse(raw);
	} catch {
		return raw;
	}
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;
