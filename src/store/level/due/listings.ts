import { del, END, put, rangeOf, SEP, type Db, type Sub } from './keys.js';

/**
 * Which input listed which URL, for a schedule on an abstract-level database: the `src`
 * sublevel, keyed `source, url`, each holding the input's reading number that last listed
 * it (see `DueQueue.mark` and `sweepOut`).
 *
 * @example
 * const listings = new LevelListings(db, sources);
 * await listings.mark('urls.txt', ['https://a.test/'], 1);
 * await listings.stale('urls.txt', 2); // ['https://a.test/']: no other source lists it
 */
export class LevelListings {
	readonly #db: Db;
	readonly #sources: Sub<number>;

	constructor(db: Db, sources: Sub<number>) {
		this.#db = db;
		this.#sources = sources;
	}

	mark(source: string, urls: readonly string[], generation: number): Promise<void> {
		return this.#db.batch(urls.map((url) => put(this.#sources, `${source}${SEP}${url}`, generation)) as never);
	}

	/** Takes out of `source`'s listing what it listed before `generation` and not since; returns those of them no other source lists. */
	async stale(source: string, generation: number): Promise<string[]> {
		const stale: string[] = [];
		for await (const [key, seen] of this.#sources.iterator(rangeOf(source))) {
			if (seen < generation) stale.push(key.slice(source.length + 1));
		}
		await this.#db.batch(stale.map((url) => del(this.#sources, `${source}${SEP}${url}`)) as never);
		// A URL another input still lists stays: it leaves only once none lists it.
		let gone = stale;
		for (const other of await this.#names()) {
			if (other === source || gone.length === 0) continue;
			const listed = await this.#sources.getMany(gone.map((url) => `${other}${SEP}${url}`));
			gone = gone.filter((_, i) => listed[i] === undefined);
		}
		return gone;
	}

	/** The sources with URLs marked: one key read per source, each skipping past the source's own keys. */
	async #names(): Promise<string[]> {
		const names: string[] = [];
		let from = '';
		for (;;) {
			let name: string | undefined;
			for await (const key of this.#sources.keys({ gte: from, limit: 1 })) name = key.slice(0, key.indexOf(SEP));
			if (name === undefined) return names;
			names.push(name);
			from = `${name}${END}`;
		}
	}
}
