// An origin whose every page changes on every answer, for bench/watch-listen.js, forked
// as its own process so that its CPU is not the bench's:
// `fork('bench/lib/changing-origin.js', [seed])`.
//
// GET /p/<n> is a short HTML page of seeded words, one of them moved on each answer, with
// an ETag per answer (so every check of a watch is a change, with a word diff); /robots.txt
// is a 404. IPC: sends {type:'ready', port}; {type:'count'} answers {type:'count', pages}
// (page requests so far); {type:'close'} exits.
import http from 'node:http';
import { serveForked } from './forked-server.js';
import { mulberry32 } from './prng.js';

const seed = Number(process.argv[2] ?? 1);
if (!Number.isInteger(seed)) throw new TypeError(`changing-origin: bad seed ${process.argv[2]}`);
const random = mulberry32(seed);
const WORDS = Array.from({ length: 400 }, () => Math.floor(random() * 2 ** 32).toString(36));
let pages = 0;

const server = http.createServer((request, response) => {
	const match = /^\/p\/(\d+)$/.exec(request.url ?? '');
	if (!match) return void response.writeHead(404).end();
	pages++;
	const n = Number(match[1]);
	const words = Array.from({ length: 60 }, (_, i) => WORDS[(n * 7 + i * 13) % WORDS.length]);
	words[n % 60] = `v${pages}`;
	response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag: `"${n}-${pages}"` });
	response.end(`<!doctype html><title>page ${n}</title><p>${words.join(' ')}</p>\n`);
});
serveForked(server, (message) => {
	if (message.type === 'count') process.send?.({ type: 'count', pages });
});
