// Fixture sites for the per-host trust figures (bench/trust.js): one plain node:http server
// per server behaviour, on 127.0.0.1 with an ephemeral port. The behaviours themselves are
// the tests' own (test/fixtures/trust-handler.js, plain JavaScript so that this bench runs
// against the built CLI without a TypeScript loader).
import http from 'node:http';
import { handlerFor } from '../test/fixtures/trust-handler.js';

export { BEHAVIOURS } from '../test/fixtures/trust-handler.js';

/**
 * Starts one behaviour's site. `counts` tallies requests, full GET bodies sent and 503s.
 *
 * @example
 * const site = await serveSite('strong-etag', 100); site.edit(3, 7); await site.close();
 */
export async function serveSite(behaviour, count) {
	const pages = Array.from({ length: count }, () => ({ version: 1, deleted: false }));
	const counts = { requests: 0, bodies: 0, busy: 0 };
	const server = http.createServer(handlerFor(behaviour, pages, counts));
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${server.address().port}`;
	const urls = pages.map((_, i) => `${origin}${behaviour === 'moved' ? `/old/${i}` : `/p/${i}`}`);
	return {
		behaviour,
		origin,
		urls,
		counts,
		edit: (...indices) => indices.map((i) => (pages[i].version++, urls[i])),
		remove: (...indices) => indices.map((i) => ((pages[i].deleted = true), urls[i])),
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
