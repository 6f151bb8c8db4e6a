import { from, lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { createHostBook } from '../../src/net/hosts/book.js';
import { robots } from '../../src/stages/robots.js';
import { MemoryStore } from '../../src/store/level/memory.js';
import type { Task } from '../../src/domain/task/types.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { fixedClock, NOW, sendDeps } from './deps.js';

describe('robots stage', () => {
	let server: TestServer | undefined;
	afterEach(async () => {
		await server?.close();
		server = undefined;
	});

	const options = { robots: 'obey' as const, agent: 'revisit', maxCrawlDelayMs: 30_000, timeoutMs: 5000, highWater: 8 };

	it('gives a disallowed URL the verdict robots and no record to commit; leaves allowed, skipped and judged tasks alone', async () => {
		server = await startServer((req, res) => res.end('User-agent: *\nDisallow: /private/\n'));
		const deps = sendDeps();
		const book = createHostBook(new MemoryStore(), NOW);
		await book.load([server.origin]);
		const origin = server.origin;
		const tasks: Task[] = [
			{ line: 1, input: '', url: server.url('/private/a'), origin, record: null },
			{ line: 2, input: '', url: server.url('/a'), origin, record: null },
			{ line: 3, input: '', url: server.url('/private/b'), origin, skip: 'not-due' },
		];
		try {
			const out = await lastValueFrom(from(tasks).pipe(robots(options, { ...deps, clock: fixedClock, book }), toArray()));
			const byLine = new Map(out.map((task) => [task.line, task]));
			expect(byLine.get(1)!.verdict).toEqual({ url: server.url('/private/a'), changed: false, reason: 'robots' });
			expect(byLine.get(1)!.next).toBeUndefined();
			expect(byLine.get(2)!.verdict).toBeUndefined();
			expect(byLine.get(3)!.verdict).toBeUndefined();
			expect(book.get(origin).robots).toMatchObject({ status: 200, text: 'User-agent: *\nDisallow: /private/\n', fetchedAt: NOW });
		} finally {
			deps.close();
		}
	});

	it('sends nothing with robots: ignore', async () => {
		server = await startServer((req, res) => res.end('User-agent: *\nDisallow: /\n'));
		const deps = sendDeps();
		const book = createHostBook(new MemoryStore(), NOW);
		try {
			const out = await lastValueFrom(
				from([{ line: 1, input: '', url: server.url('/a'), origin: server.origin, record: null } as Task]).pipe(
					robots({ ...options, robots: 'ignore' }, { ...deps, book }),
					toArray(),
				),
			);
			expect(out[0]!.verdict).toBeUndefined();
			expect(server.requests).toHaveLength(0);
		} finally {
			deps.close();
		}
	});
});
