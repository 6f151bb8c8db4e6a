import { fork, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ndjson, tempDir, type CliRun } from '../helpers/cli.js';

const ORIGINS = 1000;
const PAGES = 5;
const LIMIT = 256;
const FIXTURE = fileURLToPath(new URL('../fixtures/many-origins.js', import.meta.url));

interface OriginStats {
	requests: number;
	ok: number;
	notModified: number;
	notFound: number;
	connections: number;
	peakOpen: number;
}

/** The built CLI under `prlimit --nofile=LIMIT`: a quarter of the origins it is given. */
async function sweepLimited(store: string, urls: string[]): Promise<CliRun> {
	const child = spawn('prlimit', [`--nofile=${LIMIT}`, process.execPath, BIN, 'sweep', '--store', store, '--ndjson', '--all', '-q'], {
		stdio: ['pipe', 'pipe', 'pipe'],
	});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	child.stdin.end(`${urls.join('\n')}\n`);
	const [status] = (await once(child, 'close')) as [number | null];
	return { status: status ?? -1, stdout, stderr };
}

describe(`sweep over ${ORIGINS} origins under a limit of ${LIMIT} file descriptors`, () => {
	let origins: ChildProcess;
	const ask = async <T>(type: string): Promise<T> => {
		const reply = once(origins, 'message');
		origins.send({ type });
		return (await reply)[0] as T;
	};
	const urls: string[] = [];
	let store: Awaited<ReturnType<typeof tempDir>>;

	beforeAll(async () => {
		// The origins live in their own process: their listening sockets count against its limit, not revisit's.
		origins = fork(FIXTURE, [String(ORIGINS), String(PAGES)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
		const [ready] = (await once(origins, 'message')) as [{ ports: number[] }];
		// Round robin over the origins, the order that reuses a connection least: each origin's
		// next page comes a thousand URLs later.
		for (let page = 0; page < PAGES; page++) for (const port of ready.ports) urls.push(`http://127.0.0.1:${port}/p/${page}`);
		store = await tempDir();
	});
	afterAll(async () => {
		origins.send({ type: 'close' });
		await once(origins, 'exit');
		await store.cleanup();
	});

	it('gives every URL its verdict on both sweeps, with at most a few dozen connections open at once', async () => {
		const first = await sweepLimited(store.dir, urls);
		expect({ status: first.status, stderr: first.stderr }).toEqual({ status: 0, stderr: '' });
		const firstVerdicts = ndjson(first.stdout);
		expect(firstVerdicts.map((verdict) => verdict.url).sort()).toEqual([...urls].sort());
		expect(firstVerdicts.filter((verdict) => verdict.reason !== 'new' || verdict.changed !== true || verdict.status !== 200)).toEqual([]);
		const afterFirst = await ask<OriginStats>('stats');
		expect(afterFirst).toMatchObject({ requests: ORIGINS * PAGES, ok: ORIGINS * PAGES, notFound: 0 });
		// Idle keep-alive sockets are closed to make room, so the client never holds one per
		// origin (that was 1,000 here): the run's 28 sockets (--concurrency 24 + --per-host 4),
		// plus closes the servers have not seen yet.
		expect(afterFirst.peakOpen).toBeLessThan(100);

		await ask('reset-peak');
		const second = await sweepLimited(store.dir, urls);
		expect({ status: second.status, stderr: second.stderr }).toEqual({ status: 0, stderr: '' });
		const secondVerdicts = ndjson(second.stdout);
		expect(secondVerdicts.map((verdict) => verdict.url).sort()).toEqual([...urls].sort());
		// Nothing changed; a sampled few 304s were audited with a full GET, which agreed.
		expect(secondVerdicts.filter((verdict) => verdict.reason !== '304' || verdict.changed !== false)).toEqual([]);
		const afterSecond = await ask<OriginStats>('stats');
		expect(afterSecond.notModified).toBe(ORIGINS * PAGES);
		expect(afterSecond.notFound).toBe(0);
		expect(afterSecond.peakOpen).toBeLessThan(100);
	}, 120_000);
});
