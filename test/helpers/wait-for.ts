/**
 * Waits until `test` holds, asking every 10 ms; fails naming `what` after `ms`. The
 * deadline only tells a hang from a slow machine, so it is long: tests await an event
 * the process under test makes, never a time.
 *
 * @example
 * await waitFor(() => origin.hits.length >= 10, 'ten checks');
 */
export async function waitFor(test: () => boolean | Promise<boolean>, what: string | (() => string), ms = 30_000): Promise<void> {
	const deadline = Date.now() + ms;
	while (!(await test())) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}
