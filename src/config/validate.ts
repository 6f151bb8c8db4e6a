import { Ajv, type ValidateFunction } from 'ajv';
import { ConfigError } from '../base/errors/index.js';
import { parseDuration } from '../base/util/duration.js';
import { FORMATS } from './formats.js';
import type { JsonText } from './json-text.js';
import { propertyNode } from './json-text.js';
import { problemsFromAjv, type Problem } from './problems.js';
import { pipelineSchema, STAGE_ORDER } from './schema.js';
import type { PipelineConfig } from './pipeline-config.js';
import { watchProblems } from './watch-problems.js';

let compiled: ValidateFunction | undefined;

/**
 * A schema of this project compiled as every config is checked: strict mode, every error,
 * with the data and schema of each, and the project's string formats (duration, size…).
 *
 * @example
 * const validate = compileSchema(ruleListSchema);
 */
export function compileSchema(schema: object): ValidateFunction {
	const ajv = new Ajv({ strict: true, allErrors: true, verbose: true, discriminator: true });
	for (const [name, format] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate: format.validate });
	return ajv.compile(schema);
}

/** The pipeline schema, compiled once per process. */
function validator(): ValidateFunction {
	compiled ??= compileSchema(pipelineSchema);
	return compiled;
}

/** Where a config came from, so each problem can name its file, line and column, or the `--set` that made it. */
export interface ConfigOrigin {
	/** The file name to print (`pipeline.json`); without one, problems start with `pipeline`. */
	file?: string | undefined;
	/** The parsed text, to find lines by. */
	json?: JsonText | undefined;
	/** Which `--set` created a given object, or (with `key`) wrote that key of it. */
	setBy?: ((container: object, key?: string) => string | undefined) | undefined;
}

/**
 * Checks a pipeline config against the schema, then the rules a schema can't say
 * (stage order, a fetch stage with a dir sink, min ≤ max interval, what a watch can't
 * do), and returns it typed.
 * Throws a `ConfigError` (code CONFIG_INVALID, exit 2) listing every problem, each as
 * `file:line:column: /json/pointer: message`.
 *
 * @example
 * const config = validatePipeline(JSON.parse(text), { file: 'pipeline.json', json });
 */
export function validatePipeline(value: unknown, origin: ConfigOrigin = {}): PipelineConfig {
	const validate = validator();
	const problems = validate(value) ? ruleProblems(value as PipelineConfig) : problemsFromAjv(validate.errors ?? []);
	if (problems.length > 0) throw new ConfigError(problemLines(problems, value, origin));
	return value as PipelineConfig;
}

/**
 * Problems as lines a person can act on, in file order so they read top to bottom (a
 * --set's after the file's), each `file:line:column: /json/pointer: message`.
 *
 * @example
 * problemLines([{ pointer: '/0/select/0', message: 'must be a CSS selector' }], value, { file: 'rules.json', json })
 * // ['rules.json:1:15: /0/select/0: must be a CSS selector']
 */
export function problemLines(problems: readonly Problem[], value: unknown, origin: ConfigOrigin = {}): string[] {
	const rendered = problems.map((problem) => ({ problem, where: locate(problem, value, origin) }));
	const rank = ({ where }: { where: Where }) => (where.line === undefined ? Number.MAX_SAFE_INTEGER : where.line * 1e6 + where.column!);
	rendered.sort((a, b) => rank(a) - rank(b));
	return rendered.map(({ problem, where }) => `${where.text}: ${problem.pointer || '/'}: ${problem.message}`);
}

/** The rules beyond the schema, on a config the schema accepted. */
function ruleProblems(config: PipelineConfig): Problem[] {
	const problems: Problem[] = [];
	const stages = config.stages ?? [];
	const seen = new Map<string, number>();
	let latest = -1;
	stages.forEach((stage, i) => {
		const order = STAGE_ORDER.indexOf(stage.use);
		if (seen.has(stage.use))
			problems.push({ pointer: `/stages/${i}/use`, message: `\`${stage.use}\` is listed twice (also /stages/${seen.get(stage.use)}); list each stage once` });
		else if (order < latest)
			problems.push({
				pointer: `/stages/${i}/use`,
				message: `\`${stage.use}\` must come before \`${STAGE_ORDER[latest]}\`; stages run in this order: ${STAGE_ORDER.join(', ')}`,
			});
		seen.set(stage.use, i);
		latest = Math.max(latest, order);
		if (stage.use === 'due') {
			const min = parseDuration(stage.minInterval ?? '1h');
			const max = parseDuration(stage.maxInterval ?? '30d');
			if (min !== undefined && max !== undefined && min > max)
				problems.push({
					pointer: `/stages/${i}/minInterval`,
					message: `must not be longer than maxInterval (${stage.minInterval ?? '1h'} > ${stage.maxInterval ?? '30d'})`,
				});
		}
	});
	const fetchAt = stages.findIndex((stage) => stage.use === 'fetch');
	const dirAt = config.sinks.findIndex((sink) => sink.type === 'dir');
	problems.push(...watchProblems(config));
	// A watch refuses both (watch-problems.ts): asking for one to go with the other would mislead.
	if (config.mode !== 'watch') {
		if (fetchAt >= 0 && dirAt < 0)
			problems.push({
				pointer: `/stages/${fetchAt}`,
				message: 'the fetch stage downloads bodies for a dir sink: add { "type": "dir", "path": "pages" } to sinks',
			});
		if (dirAt >= 0 && fetchAt < 0) problems.push({ pointer: `/sinks/${dirAt}`, message: 'a dir sink writes fetched bodies: add { "use": "fetch" } to stages' });
	}
	const sources = Array.isArray(config.source) ? config.source : [config.source];
	const stdins = sources.map((source, i) => (source.type === 'stdin' ? i : -1)).filter((i) => i >= 0);
	if (stdins.length > 1) problems.push({ pointer: `/source/${stdins[1]}`, message: 'stdin can be read only once' });
	if (typeof config.store === 'object') problems.push(...storeProblems(config.store));
	return problems;
}

/** A store object's keys must fit its type: a path for level, a url for redis, neither for memory. */
function storeProblems(store: Exclude<NonNullable<PipelineConfig['store']>, string>): Problem[] {
	const type = store.type ?? 'level';
	const problems: Problem[] = [];
	if (type === 'memory' && store.path !== undefined)
		problems.push({ pointer: '/store/path', key: true, message: 'a memory store has no path: remove it, or make the type level' });
	if (type === 'redis' && store.path !== undefined) problems.push({ pointer: '/store/path', key: true, message: 'a redis store has no path: give its url' });
	if (type !== 'redis' && store.url !== undefined)
		problems.push({ pointer: '/store/url', key: true, message: `a ${type} store has no url: remove it, or make the type redis` });
	if (type === 'redis' && store.url === undefined)
		problems.push({ pointer: '/store', message: 'a redis store needs a url, e.g. "url": "redis://127.0.0.1:6379"' });
	return problems;
}

interface Where {
	text: string;
	line?: number;
	column?: number;
}

/** Where a problem is: `file:line:column`, the `--set` that wrote the value, or the file (or `pipeline`) alone. */
function locate(problem: Problem, value: unknown, origin: ConfigOrigin): Where {
	const file = origin.file ?? 'pipeline';
	const segments = problem.pointer
		.split('/')
		.slice(1)
		.map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
	let current: unknown = value;
	let node = origin.json && isContainer(value) ? origin.json.nodeOf(value) : undefined;
	// The deepest --set on the way wins: a --set may fill in an object an earlier one created.
	let set: string | undefined;
	let lost = false;
	for (const [i, segment] of segments.entries()) {
		if (!isContainer(current)) break;
		set = origin.setBy?.(current, segment) ?? origin.setBy?.(current) ?? set;
		const next = (current as Record<string, unknown>)[segment];
		const property = !lost && node?.type === 'object' ? propertyNode(node, segment) : undefined;
		if (i === segments.length - 1 && problem.key) {
			node = property?.children?.[0] ?? node;
			break;
		}
		const child = lost
			? undefined
			: isContainer(next)
				? origin.json?.nodeOf(next)
				: node?.type === 'object'
					? property?.children?.[1]
					: node?.type === 'array'
						? node.children?.[Number(segment)]
						: undefined;
		current = next;
		if (isContainer(current)) set = origin.setBy?.(current) ?? set;
		// Not in the file (written by a --set, or missing): keep the nearest enclosing place.
		if (child) node = child;
		else lost = true;
	}
	if (set) return { text: set };
	if (!node || !origin.json) return { text: file };
	const { line, column } = origin.json.position(node.offset);
	return { text: `${file}:${line}:${column}`, line, column };
}

const isContainer = (value: unknown): value is object => typeof value === 'object' && value !== null;
