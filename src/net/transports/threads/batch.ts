/**
 * Collects items and hands them over together, once per turn of the event loop: a
 * message between threads costs about the same for one item as for fifty, so the
 * attempts (and the outcomes) of one turn cross in one message.
 *
 * @example
 * const toThread = batcher((messages) => worker.postMessage(messages));
 * toThread.push({ type: 'attempt', id, spec });
 */
export function batcher<T>(flush: (items: T[]) => void): { push(item: T): void } {
	let items: T[] = [];
	let scheduled = false;
	const send = () => {
		scheduled = false;
		const out = items;
		items = [];
		flush(out);
	};
	return {
		push(item) {
			items.push(item);
			if (!scheduled) {
				scheduled = true;
				setImmediate(send);
			}
		},
	};
}
