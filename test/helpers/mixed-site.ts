import { handlerFor, type Behaviour, type Counts, type Page } from '../fixtures/trust-handler.js';
import { startServer, type TestServer } from './server.js';

/** The hosts of the mixed site: validators of every kind, deletions, and a host that lies with 304s. */
export const MIXED: Behaviour[] = ['strong-etag', 'last-modified', 'no-validators', 'gone-410', 'lying-304', 'rotating-etag'];

export interface MixedSite {
	/** Every URL, one per line. */
	input(): string;
	/**
	 * Round `round`'s edits and deletions (the same for every site started with the same
	 * size): returns the URLs a correct sweep reports next, sorted. The lying host's edits
	 * hide behind its 304s, so they are not among them (an audit would find them; tests
	 * that compare runs turn audits off).
	 */
	step(round: number): string[];
	servers: TestServer[];
	close(): Promise<void>;
}

/**
 * One server per behaviour of `MIXED`, `pages` pages each, on 127.0.0.1: the fixture for
 * "the same output however the requests are sent" tests (local sweep, threads, a fleet).
 *
 * @example
 * const site = await startMixedSite(20);
 * site.step(1); // edits and deletes some pages, returns what should be reported
 */
export async function startMixedSite(pages: number): Promise<MixedSite> {
	const sites = await Promise.all(
		MIXED.map(async (behaviour) => {
			const state: Page[] = Array.from({ length: pages }, () => ({ version: 0, deleted: false }));
			const counts: Counts = { requests: 0, bodies: 0, busy: 0 };
			return { behaviour, state, server: await startServer(handlerFor(behaviour, state, counts)) };
		}),
	);
	const urls = sites.flatMap(({ server }) => Array.from({ length: pages }, (_, i) => server.url(`/p/${i}`)));
	return {
		input: () => urls.join('\n') + '\n',
		step(round) {
			const reported: string[] = [];
			for (const { behaviour, state, server } of sites) {
				state.forEach((page, i) => {
					if (page.deleted) return;
					if ((i + round) % 7 === 0) {
						page.version++;
						if (behaviour !== 'lying-304') reported.push(server.url(`/p/${i}`));
					} else if (behaviour === 'gone-410' && (i + round) % 11 === 0) {
						page.deleted = true;
						reported.push(server.url(`/p/${i}`));
					}
				});
			}
			return reported.sort();
		},
		servers: sites.map(({ server }) => server),
		close: async () => void (await Promise.all(sites.map(({ server }) => server.close()))),
	};
}
