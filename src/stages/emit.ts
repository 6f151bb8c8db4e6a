import { concatMap, type MonoTypeOperatorFunction } from 'rxjs';
import type { Task, Verdict } from '../types.js';

export interface EmitOptions {
	/** `lines`: changed URLs one per line. `ndjson`: one verdict object per line. */
	format?: 'lines' | 'ndjson';
	/** With `ndjson`, also print unchanged verdicts. */
	all?: boolean;
}

export interface EmitTargets {
	/** Resolves once the text is handed to the OS; the commit waits for it. */
	out(text: string): Promise<void>;
	/** Diagnostics (bad lines, errors): one line each, never on the data stream. */
	diagnose(text: string): void;
}

/**
 * Writes verdicts to the data output and problems to diagnostics, passing each task
 * on only after its line is written, so the commit stage never records a change the
 * user has not been shown.
 *
 * @example
 * tasks$.pipe(emit({ out: writeStdout, diagnose: warn }, { format: 'ndjson', all: true }), commit(store))
 */
export function emit(targets: EmitTargets, options: EmitOptions = {}): MonoTypeOperatorFunction<Task> {
	const format = options.format ?? 'lines';
	if (format !== 'lines' && format !== 'ndjson') throw new TypeError(`Expected \`format\` to be lines or ndjson, got \`${String(format)}\``);
	const all = options.all ?? false;

	const render = (verdict: Verdict): string | undefined => {
		if (format === 'lines') return verdict.changed ? `${verdict.url}\n` : undefined;
		return verdict.changed || all ? `${JSON.stringify(verdict)}\n` : undefined;
	};

	return concatMap(async (task) => {
		if (task.skip === 'rejected') {
			targets.diagnose(`line ${task.line}: ${task.problem}: ${JSON.stringify(task.input.slice(0, 200))}`);
			return task;
		}
		const verdict = task.verdict;
		if (!verdict) return task;
		if (verdict.error) targets.diagnose(`${redact(verdict.url)}: ${verdict.error.code}: ${verdict.error.message}`);
		const text = render(verdict);
		if (text !== undefined) await targets.out(text);
		return task;
	});
}

/** Hides a password embedded in a URL before it reaches a log. */
export function redact(url: string): string {
	try {
		const parsed = new URL(url);
		if (!parsed.password) return url;
		parsed.password = '***';
		return parsed.href;
	} catch {
		return url;
	}
}
