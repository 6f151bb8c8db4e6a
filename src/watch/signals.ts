/** Where a watch hears SIGHUP (read the inputs again): injected, so that tests send no real signal. */
export interface Signals {
	/** Calls `listener` on each SIGHUP; returns the function that stops it. */
	onHup(listener: () => void): () => void;
}

/**
 * The process's own signals. Listening to SIGHUP replaces its default action (ending
 * the process) for as long as a listener is on.
 *
 * @example
 * watchInputs(spec, { signals: processSignals(), ... })
 */
export function processSignals(target: NodeJS.Process = process): Signals {
	return {
		onHup(listener) {
			target.on('SIGHUP', listener);
			return () => void target.off('SIGHUP', listener);
		},
	};
}
