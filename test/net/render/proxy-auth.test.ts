import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { newProxyCredential, peerUid, triedCredential } from '../../../src/net/render/proxy-auth.js';

describe('newProxyCredential', () => {
	it('accepts its own Basic header and nothing else; a new one each time', () => {
		const credential = newProxyCredential();
		const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
		expect(credential.accepts({ 'proxy-authorization': basic(credential.username, credential.password) })).toBe(true);
		expect(credential.accepts({ 'proxy-authorization': basic(credential.username, `${credential.password}x`) })).toBe(false);
		expect(credential.accepts({ 'proxy-authorization': basic('other', credential.password) })).toBe(false);
		expect(credential.accepts({})).toBe(false);
		expect(newProxyCredential().password).not.toBe(credential.password);
		expect(credential.password.length).toBeGreaterThanOrEqual(32);
	});

	it('tells a wrong credential from none', () => {
		expect(triedCredential({ 'proxy-authorization': 'Basic eDp5' })).toBe(true);
		expect(triedCredential({})).toBe(false);
	});
});

describe('peerUid', () => {
	it("names the uid that owns a loopback connection's client end, and none where the table has no such row", async () => {
		const server = net.createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
		const client = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
		try {
			const socket = await accepted;
			expect(await peerUid(socket.remotePort!, socket.localPort!)).toBe(process.getuid!());
			expect(await peerUid(socket.remotePort!, socket.localPort!, '/nonexistent/tcp')).toBeUndefined();
		} finally {
			client.destroy();
			server.close();
		}
	});
});
