import { map, type MonoTypeOperatorFunction } from 'rxjs';
import type { Task } from '../domain/task/types.js';
import { OptionError } from '../base/errors/index.js';

export interface FilterOptions {
	/** Keep only URLs matching at least one of these (regular expressions, searched anywhere in the URL). */
	include?: ReadonlyArray<string | RegExp> | undefined;
	/** Drop URLs matching any of these. */
	exclude?: ReadonlyArray<string | RegExp> | undefined;
	/** Drop URLs whose host differs from that of the document that listed them (a sitemap's URL); URLs from elsewhere pass. */
	sameHost?: boolean | undefined;
}

/**
 * Marks `filtered` the tasks whose normalised URL the options rule out, so they are
 * neither looked up nor probed (and are counted in the summary). Patterns are checked
 * when the stage is built.
 *
 * @example
 * tasks$.pipe(normalise(), dedupe(), filter({ include: ['^https://example\\.org/docs/'], exclude: ['\\.pdf$'] }))
 */
export function filter(options: FilterOptions = {}): MonoTypeOperatorFunction<Task> {
	const compile = (name: string, patterns: ReadonlyArray<string | RegExp> | undefined) =>
		patterns?.map((pattern) => {
			if (pattern instanceof RegExp) return pattern;
			try {
				return new RegExp(pattern);
			} catch (error) {
				throw new OptionError(name, `Expected \`${name}\` to hold regular expressions: ${(error as Error).message}`);
			}
		});
	const include = compile('include', options.include);
	const exclude = compile('exclude', options.exclude);
	const { sameHost = false } = options;

	const keep = (task: Task): boolean => {
		const url = task.url!;
		if (include && include.length > 0 && !include.some((pattern) => matches(pattern, url))) return false;
		if (exclude?.some((pattern) => matches(pattern, url))) return false;
		if (sameHost && task.from !== undefined && hostOf(task.from) !== hostOf(url)) return false;
		return true;
	};
	return map((task) => (task.skip || task.url === undefined || keep(task) ? task : { ...task, skip: 'filtered' }));
}

function matches(pattern: RegExp, url: string): boolean {
	// A global or sticky pattern keeps state between calls: start each test afresh.
	pattern.lastIndex = 0;
	return pattern.test(url);
}

function hostOf(url: string): string | undefined {
	try {
		return new URL(url).hostname;
	} catch {
		return undefined;
	}
}
