import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../../src/net/http/client.js';
import { attemptRequest } from '../../../src/net/http/request.js';
import { hashBody } from '../../../src/domain/content/hash.js';
import { prosePages, writePdf } from '../../fixtures/pdf-writer.js';
import { describeNeeding, findProgram } from '../../helpers/debian.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const POPPLER = { name: 'poppler-utils', path: findProgram('pdftotext'), install: 'apt-get install -y poppler-utils' };
const options = { userAgent: 'test', timeoutMs: 10_000, acceptEncoding: 'identity', maxBodyBytes: 1 << 24, denyPrivate: false, insecure: false, maxSockets: 8 };

/** Serves `bodies[path]` with its type, whatever was asked. */
function serve(bodies: Record<string, { type: string; body: Buffer | string }>): Promise<TestServer> {
	return startServer((req, res) => {
		const found = bodies[req.url ?? ''];
		if (!found) return void res.writeHead(404).end();
		res.setHeader('content-type', found.type);
		res.end(found.body);
	});
}

describe('counting a JSON body (default flags: no rules, text kept)', () => {
	let server: TestServer;
	const client = createHttpClient({ ...options, keepCounted: 32 * 1024 });
	beforeAll(async () => {
		server = await serve({
			'/a': { type: 'application/json', body: '{"price":5,"name":"Kettle","tags":{"z":1,"a":2}}' },
			'/b': { type: 'application/json; charset=utf-8', body: '{"tags":{"a":2,"z":1},"name":"Kettle","price":5}' },
		});
	});
	afterAll(async () => {
		client.close();
		await server.close();
	});

	it('gives two documents that differ in key order alone the same content hash, and keeps the text pretty-printed with sorted keys', async () => {
		const get = async (path: string) => (await attemptRequest(client.got, 'GET', server.url(path), {}, new AbortController().signal, Date.now)).result;
		const [a, b] = [await get('/a'), await get('/b')];
		expect(a.hash).not.toBe(b.hash);
		expect(a.content).toEqual({ hash: expect.any(String), rules: '-' });
		expect(b.content).toEqual(a.content);
		expect(a.counted).toEqual({ text: '{\n  "name": "Kettle",\n  "price": 5,\n  "tags": {\n    "a": 2,\n    "z": 1\n  }\n}', cut: false, json: true });
		expect(b.counted).toEqual(a.counted);
	});
});

describeNeeding(POPPLER, 'counting a PDF body (default flags)', () => {
	let server: TestServer;
	const pages = prosePages(2, 8);
	const encrypted = writePdf(pages, { encrypt: true });
	const client = createHttpClient({ ...options, keepCounted: 32 * 1024 });
	const missing = createHttpClient({ ...options, keepCounted: 32 * 1024, pdf: { program: '/nonexistent/pdftotext' } });
	beforeAll(async () => {
		server = await serve({
			'/one.pdf': { type: 'application/pdf', body: writePdf(pages) },
			'/two.pdf': { type: 'application/pdf', body: writePdf(pages, { created: new Date(Date.UTC(2027, 1, 1)), id: 'two', order: 'reverse', compress: true }) },
			'/untyped': { type: 'application/octet-stream', body: writePdf(pages, { layout: 'split' }) },
			'/locked.pdf': { type: 'application/pdf', body: encrypted },
		});
	});
	afterAll(async () => {
		client.close();
		missing.close();
		await server.close();
	});
	const get = async (path: string, by = client) => (await attemptRequest(by.got, 'GET', server.url(path), {}, new AbortController().signal, Date.now)).result;

	it('counts its text: a PDF written again with the same text has another body hash and the same content hash, and keeps that text', async () => {
		const [one, two, untyped] = [await get('/one.pdf'), await get('/two.pdf'), await get('/untyped')];
		expect(new Set([one.hash, two.hash, untyped.hash]).size).toBe(3);
		expect(one.content).toEqual({ hash: expect.any(String), rules: '-' });
		expect(two.content).toEqual(one.content);
		expect(untyped.content).toEqual(one.content);
		expect(one.counted).toEqual({ text: pages.flat().join('\n'), cut: false });
	});

	it('judges an encrypted PDF by its bytes, says why, and keeps no text', async () => {
		const locked = await get('/locked.pdf');
		expect(locked.unread).toBe('encrypted: it needs a password');
		expect(locked.content).toEqual({ hash: hashBody(encrypted), rules: '-' });
		expect(locked.counted).toBeUndefined();
	});

	it('without pdftotext, judges a PDF as it did before PDFs were read (no content hash), and says which package is missing', async () => {
		const one = await get('/one.pdf', missing);
		expect(one.unread).toBe('/nonexistent/pdftotext is not installed (apt-get install poppler-utils)');
		expect(one.content).toBeUndefined();
		expect(one.counted).toBeUndefined();
		expect(one.hash).toMatch(/^[0-9a-f]{32}$/);
	});
});
