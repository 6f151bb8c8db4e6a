// A tiny HTTP origin for test/helpers/public-host.ts, run inside the test host's network
// namespace: it serves the pages given as JSON on stdin ({ "/path": { status, headers, body } })
// and writes one JSON line per request it sees on stdout, after a first line naming its port.
import http from 'node:http';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const { host, pages } = JSON.parse(input);
const server = http.createServer((request, response) => {
	const path = request.url ?? '/';
	let body = '';
	request.on('data', (chunk) => (body += chunk));
	request.on('end', () => {
		process.stdout.write(`${JSON.stringify({ method: request.method, path, headers: request.headers, body })}\n`);
		const page = pages[path.split('?')[0]] ?? { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };
		response.writeHead(page.status ?? 200, page.headers ?? { 'content-type': 'text/html' }).end(page.body ?? '');
	});
});
server.listen(0, host, () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
process.on('SIGTERM', () => process.exit(0));
