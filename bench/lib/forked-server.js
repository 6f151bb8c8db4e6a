/**
 * Runs `server` as a bench's forked origin: keep-alive long enough for a whole run, an
 * ephemeral port on 127.0.0.1 reported to the parent as {type:'ready', port}, `onMessage`
 * for the parent's other messages, and an exit on {type:'close'} or when the parent goes.
 *
 * @example
 * serveForked(http.createServer(handler), (message) => { if (message.type === 'change') … });
 */
export function serveForked(server, onMessage) {
	server.keepAliveTimeout = 60_000;
	server.headersTimeout = 65_000;
	server.listen(0, '127.0.0.1', () => process.send?.({ type: 'ready', port: server.address().port }));
	process.on('message', (message) => {
		if (message?.type === 'close') {
			server.closeAllConnections();
			server.close(() => process.exit(0));
			setTimeout(() => process.exit(0), 2000).unref();
		} else if (message) onMessage(message);
	});
	process.on('disconnect', () => process.exit(0));
}
