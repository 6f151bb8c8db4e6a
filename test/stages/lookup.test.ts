import { from, lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHostBook } from '../../src/net/hosts/book.js';
import { newHostRecord } from '../../src/net/hosts/record.js';
import { lookup } from '../../src/stages/lookup.js';
import { LevelStore } from '../../src/store/level/store.js';
import { RECORD_VERSION, type StoreOperation, type UrlRecord } from '../../src/store/model/types.js';
import type { Task } from '../../src/domain/task/types.js';
import { tempDir } from '../helpers/cli.js';
import { NOW } from './deps.js';
import { OptionError } from '../../src/base/errors/index.js';

const known: UrlRecord = { v: RECORD_VERSION, status: 200, etag: '"k"', hash: 'h', lastChecked: NOW - 1000 };
const task = (url: string, more: Partial<Task> = {}): Task => ({ line: 1, input: url, url, ...more });

let store: LevelStore;
let cleanup: () => Promise<void>;
beforeEach(async () => {
	const temp = await tempDir('revisit-lookup-');
	cleanup = temp.cleanup;
	store = await LevelStore.open(temp.dir);
});
afterEach(async () => {
	await store.close();
	await cleanup();
});

describe('lookup', () => {
	it('attaches the stored record to a known URL and null to a URL never seen', async () => {
		await store.batch([{ type: 'put', key: 'https://a.example/known', value: known }]);
		const out = await lastValueFrom(from([task('https://a.example/known'), task('https://a.example/new')]).pipe(lookup({}, store), toArray()));
		expect(out.map((t) => [t.url, t.record])).toEqual([
			['https://a.example/known', known],
			['https://a.example/new', null],
		]);
	});

	it('sets the origin the probe will go to, following a permanent redirect stored for the URL', async () => {
		await store.batch([{ type: 'put', key: 'http://old.example/p', value: { ...known, finalUrl: 'https://new.example/p', permanent: true } }]);
		const out = await lastValueFrom(
			from([task('http://old.example/p', { origin: 'http://old.example' }), task('https://b.example/x')]).pipe(lookup({}, store), toArray()),
		);
		expect(out.map((t) => t.origin)).toEqual(['https://new.example', 'https://b.example']);
	});

	it('leaves skipped tasks alone and passes every task on', async () => {
		await store.batch([{ type: 'put', key: 'https://a.example/known', value: known }]);
		const duplicate = task('https://a.example/known', { skip: 'duplicate' });
		const rejected: Task = { line: 2, input: '::', skip: 'rejected', problem: 'bad' };
		const out = await lastValueFrom(from([duplicate, rejected]).pipe(lookup({}, store), toArray()));
		expect(out).toHaveLength(2);
		expect(out.every((t) => t.record === undefined && t.origin === undefined)).toBe(true);
	});

	it('reads the store in batches of batchSize with getMany', async () => {
		const calls: string[][] = [];
		const getMany = store.getMany.bind(store);
		store.getMany = async (keys) => {
			calls.push([...keys]);
			return getMany(keys);
		};
		const urls = Array.from({ length: 5 }, (_, i) => `https://a.example/${i}`);
		const out = await lastValueFrom(from(urls.map((url) => task(url))).pipe(lookup({ batchSize: 2, maxWaitMs: 1000 }, store), toArray()));
		// Batches are read concurrently, so tasks may come out in another order: lookup does not promise it.
		expect(out.map((t) => t.url).sort()).toEqual(urls);
		expect(calls).toEqual([urls.slice(0, 2), urls.slice(2, 4), urls.slice(4)]);
	});

	it('loads the hosts of each batch into the host book, with what the store holds for them', async () => {
		const stored = { ...newHostRecord(0), mode: 'hash-only' as const, runs: 4, lastRunAt: NOW - 86_400_000 };
		const hostOps: StoreOperation[] = [{ type: 'putHost', key: 'https://a.example', value: stored }];
		await store.batch(hostOps);
		const book = createHostBook(store, NOW);
		await lastValueFrom(from([task('https://a.example/1'), task('https://b.example/1')]).pipe(lookup({ book }, store), toArray()));
		expect(book.get('https://a.example')).toMatchObject({ mode: 'hash-only', runs: 5, lastRunAt: NOW, runInterval: 86_400_000 });
		expect(book.get('https://b.example')).toMatchObject({ mode: 'conditional', runs: 1 });
	});

	it('refuses a batch size that is not a positive integer', () => {
		expect(() => lookup({ batchSize: 1.5 }, store)).toThrow(OptionError);
	});

	it('refuses a store spec or a value without getMany with a RevisitError (USAGE), when called', () => {
		expect(() => lookup(undefined, '.revisit' as never)).toThrow(
			expect.objectContaining({
				code: 'USAGE',
				message: '`store`: a stage takes an opened store (openStore(".revisit")), not a spec: the run\'s stages share one',
			}),
		);
		expect(() => lookup(undefined, {} as never)).toThrow(
			expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('got an object without getMany()') }),
		);
	});
});
