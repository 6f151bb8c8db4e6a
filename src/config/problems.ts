import type { ErrorObject } from 'ajv';
import { shownUrl } from '../base/util/shown-url.js';
import { FORMATS, formatProblem } from './formats.js';
import { listOf, nearest } from '../base/util/suggest.js';

/** One thing wrong with a pipeline, at a JSON pointer; `key` when it is about a key, not its value. */
export interface Problem {
	pointer: string;
	message: string;
	key?: boolean;
}

type Schema = Record<string, unknown> & {
	type?: string;
	title?: string;
	properties?: Record<string, Schema>;
	anyOf?: Schema[];
	oneOf?: Schema[];
	items?: Schema;
};

/**
 * Turns Ajv's errors (verbose, allErrors) into one problem per place, in words: what
 * was expected (from the schema: "integer >= 1", "one of get, head or auto"), what was
 * found, and for a misspelt key or name the nearest allowed one. Of the branches of an
 * `anyOf`, only the one the value's type fits is reported.
 *
 * @example
 * problemsFromAjv(validate.errors) // [{ pointer: '/stages/2/concurrency', message: 'must be integer >= 1 (got "many")' }]
 */
export function problemsFromAjv(errors: readonly ErrorObject[]): Problem[] {
	const kept = pruneBranches(errors);
	const problems: Problem[] = [];
	const seen = new Set<string>();
	for (const error of kept) {
		const problem = toProblem(error);
		if (!problem) continue;
		// Two keywords can say the same thing of one value (type and minimum of 0.5 for an integer >= 1).
		const id = `${problem.pointer}\0${problem.key ? 'key' : 'value'}\0${problem.message}`;
		if (seen.has(id)) continue;
		seen.add(id);
		problems.push(problem);
	}
	return problems;
}

/** Drops the errors of anyOf branches the value does not fit, or sums them up in one. */
function pruneBranches(errors: readonly ErrorObject[]): ErrorObject[] {
	const removed = new Set<ErrorObject>();
	const added = new Map<ErrorObject, ErrorObject>();
	const anyOfs = errors.filter((error) => error.keyword === 'anyOf').sort((a, b) => a.schemaPath.length - b.schemaPath.length);
	for (const anyOf of anyOfs) {
		removed.add(anyOf);
		const inside = errors.filter((error) => error !== anyOf && error.schemaPath.startsWith(`${anyOf.schemaPath}/`) && !removed.has(error));
		const branchOf = (error: ErrorObject) => Number(error.schemaPath.slice(anyOf.schemaPath.length + 1).split('/')[0]);
		const misfits = new Set(
			inside
				.filter(
					(error) =>
						error.keyword === 'type' && error.instancePath === anyOf.instancePath && error.schemaPath === `${anyOf.schemaPath}/${branchOf(error)}/type`,
				)
				.map(branchOf),
		);
		const branches = (anyOf.schema as Schema[]).map((_, i) => i);
		const fitting = branches.find((i) => !misfits.has(i));
		for (const error of inside) if (fitting === undefined || branchOf(error) !== fitting) removed.add(error);
		if (fitting === undefined) added.set(anyOf, { ...anyOf, keyword: 'type', parentSchema: anyOf.parentSchema });
	}
	return errors.flatMap((error) => (added.has(error) ? [added.get(error)!] : removed.has(error) ? [] : [error]));
}

function toProblem(error: ErrorObject): Problem | undefined {
	const pointer = error.instancePath;
	const schema = (error.parentSchema ?? {}) as Schema;
	const got = ` (got ${show(error.data)})`;
	const gotHint = (allowed: readonly string[]) => ` (got ${show(error.data)}${hint(error.data, allowed)})`;
	switch (error.keyword) {
		case 'type':
		case 'minimum':
		case 'maximum':
		case 'exclusiveMinimum':
		case 'exclusiveMaximum':
		case 'minLength':
			return { pointer, message: `must be ${describe(schema)}${got}` };
		case 'format': {
			const problem = typeof error.data === 'string' ? formatProblem(String(error.params.format), error.data) : undefined;
			const detail = problem === undefined ? '' : `: ${problem}`;
			return { pointer, message: `must be ${describe(schema)} (got ${show(error.data)}${detail})` };
		}
		case 'enum': {
			const allowed = (error.params.allowedValues as unknown[]).map(String);
			return { pointer, message: `must be one of ${listOf(allowed)}${gotHint(allowed)}` };
		}
		case 'minItems':
			return { pointer, message: `must list at least one ${pointer.split('/').at(-1)!.replace(/s$/, '')}` };
		case 'additionalProperties': {
			const key = String(error.params.additionalProperty);
			// The tag (`use`, `type`) is already right, or this branch would not have been chosen.
			const allowed = Object.entries(schema.properties ?? {})
				.filter(([, property]) => property.const === undefined)
				.map(([name]) => name);
			return {
				pointer: `${pointer}/${escape(key)}`,
				key: true,
				message: `unknown key; ${schema.title ?? 'this object'} takes ${listOf(allowed)}${suggest(key, allowed)}`,
			};
		}
		case 'required':
			return { pointer, message: `missing ${JSON.stringify(error.params.missingProperty)}: ${schema.title ?? 'this object'} needs it` };
		case 'discriminator': {
			const tag = String(error.params.tag);
			const branches = (schema.oneOf ?? []) as Schema[];
			const names = branches.map((branch) => String((branch.properties?.[tag] as { const?: unknown } | undefined)?.const));
			const kind = tag === 'use' ? 'stage' : pointer.startsWith('/sinks') ? 'sink' : 'source';
			if (error.params.error === 'mapping') {
				return {
					pointer: `${pointer}/${tag}`,
					message: `unknown ${kind} ${show(error.params.tagValue)}; ${kind}s are ${listOf(names, 'and')}${suggest(error.params.tagValue, names)}`,
				};
			}
			if (typeof error.data !== 'object' || error.data === null || Array.isArray(error.data)) return { pointer, message: `must be an object${got}` };
			return { pointer, message: `missing ${JSON.stringify(tag)}: name the ${kind}, one of ${listOf(names)}` };
		}
		case 'oneOf':
		case 'if':
			return undefined;
		default:
			return { pointer, message: `${error.message ?? 'is invalid'}${got}` };
	}
}

/**
 * What a schema accepts, in words.
 *
 * @example
 * describe({ type: 'integer', minimum: 1 }) // 'integer >= 1'
 * describe({ type: 'number', minimum: 0, maximum: 1 }) // 'number from 0 to 1'
 */
export function describe(schema: Schema): string {
	if (Array.isArray(schema.enum)) return `one of ${listOf(schema.enum.map(String))}`;
	if (schema.anyOf) return listOf(schema.anyOf.map(describe));
	if (schema.discriminator) return 'an object';
	switch (schema.type) {
		case 'integer':
		case 'number':
			return `${schema.type}${range(schema)}`;
		case 'string':
			return typeof schema.format === 'string' ? (FORMATS[schema.format]?.text ?? schema.format) : schema.minLength ? 'a non-empty string' : 'a string';
		case 'boolean':
			return 'true or false';
		case 'array': {
			const items = schema.items;
			const noun = items?.type === 'string' ? (typeof items.format === 'string' ? (FORMATS[items.format]?.plural ?? 'strings') : 'strings') : 'objects';
			return `an array of ${noun}`;
		}
		case 'object':
			return 'an object';
		default:
			return 'valid';
	}
}

function range(schema: Schema): string {
	const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema as Record<string, number | undefined>;
	if (minimum !== undefined && maximum !== undefined) return ` from ${minimum} to ${maximum}`;
	const parts = [
		minimum !== undefined ? `>= ${minimum}` : '',
		exclusiveMinimum !== undefined ? `> ${exclusiveMinimum}` : '',
		maximum !== undefined ? `<= ${maximum}` : '',
		exclusiveMaximum !== undefined ? `< ${exclusiveMaximum}` : '',
	];
	const text = parts.filter(Boolean).join(' and ');
	return text ? ` ${text}` : '';
}

function hint(given: unknown, allowed: readonly string[]): string {
	const near = typeof given === 'string' ? nearest(given, allowed) : undefined;
	return near === undefined ? '' : `; did you mean \`${near}\`?`;
}

function suggest(given: unknown, allowed: readonly string[]): string {
	const near = hint(given, allowed);
	return near ? ` (${near.slice(2)})` : '';
}

/**
 * A found value, short, for "(got …)".
 *
 * @example
 * show('many') // '"many"'
 */
export function show(value: unknown): string {
	if (Array.isArray(value)) return 'an array';
	if (value === null) return 'null';
	if (typeof value === 'object') return 'an object';
	// A Redis URL's password never goes into a message.
	const text = JSON.stringify(typeof value === 'string' ? shownUrl(value) : value) ?? String(value);
	return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const escape = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');
