import { Observable } from 'rxjs';
import type { Valve } from '../../base/flow/valve.js';
import type { InputLine } from '../../domain/task/types.js';

/**
 * Emits already-split input lines (a list, a JSON array, sitemap entries) one at a
 * time, each after taking a credit from `valve`, so a long list is pulled no faster
 * than the run drains it. Stops pulling when unsubscribed.
 *
 * @example
 * readItems((async function* () { yield { line: 1, text: 'https://example.org/' }; })(), valve)
 */
export function readItems(items: AsyncIterable<InputLine> | Iterable<InputLine>, valve: Valve): Observable<InputLine> {
	return new Observable<InputLine>((subscriber) => {
		let stopped = false;
		const pump = async (): Promise<void> => {
			for await (const item of items) {
				if (stopped) return;
				await valve.acquire();
				if (stopped) return;
				subscriber.next(item);
			}
		};
		pump().then(
			() => subscriber.complete(),
			(error: unknown) => subscriber.error(error),
		);
		return () => {
			stopped = true;
		};
	});
}
