import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { bodiesSink } from '../../../src/io/sinks/bodies.js';
import type { Task } from '../../../src/domain/task/types.js';
import { NOW, sinkContext } from './context.js';

const fetched = (url: string, body: Buffer, changed = true): Task => ({
	line: 1,
	input: url,
	url,
	probe: { status: 200, finalUrl: url, permanent: false, bytes: body.length, ms: 1, hash: 'h', contentType: 'text/plain', body },
	verdict: { url, changed, reason: changed ? 'new-body' : 'same-hash' },
});

describe('bodiesSink (fetch --ndjson)', () => {
	it('prints every fetched body as one NDJSON object, text as utf8 and bytes as base64, and passes every task on', async () => {
		const { context, printed } = sinkContext();
		const out = await lastValueFrom(
			from([fetched('https://a.example/t', Buffer.from('héllo')), fetched('https://a.example/b', Buffer.from([0xff, 0x00]), false)]).pipe(
				bodiesSink()(context),
				toArray(),
			),
		);
		expect(out).toHaveLength(2);
		const lines = printed()
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as Record<string, unknown>);
		expect(lines).toEqual([
			{
				url: 'https://a.example/t',
				status: 200,
				contentType: 'text/plain',
				hash: 'h',
				changed: true,
				reason: 'new-body',
				fetchedAt: new Date(NOW).toISOString(),
				encoding: 'utf8',
				body: 'héllo',
			},
			{
				url: 'https://a.example/b',
				status: 200,
				contentType: 'text/plain',
				hash: 'h',
				changed: false,
				reason: 'same-hash',
				fetchedAt: new Date(NOW).toISOString(),
				encoding: 'base64',
				body: Buffer.from([0xff, 0x00]).toString('base64'),
			},
		]);
	});
});
