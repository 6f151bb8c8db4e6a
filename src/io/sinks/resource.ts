import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import type { Task } from '../../domain/task/types.js';

/**
 * An operator that owns a resource for one run: opened when subscribed, before any task
 * passes; closed when the stream ends, and the end is passed on only once it is closed
 * (so a file is flushed, a command has exited, before the last commit). A failure to
 * close fails the stream; unsubscribing closes without waiting.
 *
 * @example
 * withResource(() => open(path, 'a'), (file) => emit({}, { out: (text) => file.write(text) }), (file) => file.close())
 */
export function withResource<R>(
	open: () => Promise<R>,
	use: (resource: R) => MonoTypeOperatorFunction<Task>,
	close: (resource: R, outcome: 'complete' | 'error' | 'unsubscribe') => Promise<void>,
): MonoTypeOperatorFunction<Task> {
	return (source) =>
		new Observable<Task>((subscriber) => {
			let resource: { value: R } | undefined;
			let finished = false;
			let stopped = false;
			let inner: { unsubscribe(): void } | undefined;
			open().then(
				(value) => {
					resource = { value };
					if (stopped) return void close(value, 'unsubscribe').catch(() => {});
					inner = source.pipe(use(value)).subscribe({
						next: (task) => subscriber.next(task),
						error: (error: unknown) => {
							finished = true;
							void close(value, 'error')
								.catch(() => {})
								.finally(() => subscriber.error(error));
						},
						complete: () => {
							finished = true;
							close(value, 'complete').then(
								() => subscriber.complete(),
								(error: unknown) => subscriber.error(error),
							);
						},
					});
				},
				(error: unknown) => subscriber.error(error),
			);
			return () => {
				stopped = true;
				inner?.unsubscribe();
				if (resource && !finished) void close(resource.value, 'unsubscribe').catch(() => {});
			};
		});
}
