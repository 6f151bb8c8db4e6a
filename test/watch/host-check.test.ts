import { describe, expect, it } from 'vitest';
import { listenHostsValue } from '../../src/config/values.js';
import { UsageError } from '../../src/base/errors/index.js';
import { hostCheck } from '../../src/watch/host-check.js';

const machine = () => ({ addresses: ['127.0.0.1', '10.0.0.5', '::1', 'fe80::1'], hostname: 'box' });

describe('hostCheck', () => {
	it('on every interface answers the machine’s addresses, its hostname and localhost, with the port', () => {
		const check = hostCheck({ host: '', port: 9464 }, { host: '::', port: 9464 }, [], machine);
		for (const host of ['10.0.0.5:9464', '[fe80::1]:9464', '[::1]:9464', 'box:9464', 'localhost:9464']) expect(check.allows(host), host).toBe(true);
		for (const host of ['10.0.0.6:9464', '10.0.0.5:9465', 'box', 'evil.example:9464', '[::]:9464', '0.0.0.0:9464', '', undefined])
			expect(check.allows(host), String(host)).toBe(false);
		expect(check.refusal).toMatch(
			/^this server answers only requests whose Host is .*10\.0\.0\.5:9464.*\[fe80::1\]:9464.*box:9464.*; --listen-host NAME adds a name$/,
		);
	});

	it('on one address answers that address, the name it was given, and localhost only on loopback', () => {
		const named = hostCheck({ host: 'watch.lan', port: 80 }, { host: '10.0.0.5', port: 80 }, [], machine);
		expect(['10.0.0.5', '10.0.0.5:80', 'watch.lan'].map(named.allows)).toEqual([true, true, true]);
		expect(['localhost', 'box', '127.0.0.1'].map(named.allows)).toEqual([false, false, false]);
		const v6 = hostCheck({ host: '::1', port: 9464 }, { host: '::1', port: 9464 }, ['metrics.internal'], machine);
		expect(['[::1]:9464', 'localhost:9464', 'metrics.internal', 'metrics.internal:8080'].map(v6.allows)).toEqual([true, true, true, true]);
		expect(['::1', '[::1]', '127.0.0.1:9464'].map(v6.allows)).toEqual([false, false, false]);
	});
});

describe('--listen-host', () => {
	it('takes host names and IP addresses, in lower case, IPv6 without brackets', () => {
		expect(listenHostsValue('listen-host')(['Watch.Example.org', '[::1]', '10.0.0.5', 'box.'])).toEqual(['watch.example.org', '::1', '10.0.0.5', 'box']);
		expect(listenHostsValue('listen-host')(undefined)).toEqual([]);
	});

	it('refuses a port, a URL or anything else that is not a name, naming the flag', () => {
		for (const bad of ['watch.example.org:9464', 'http://watch.example.org', '', 'a b', '-x.example']) {
			expect(() => listenHostsValue('listen-host')([bad]), bad).toThrow(UsageError);
			expect(() => listenHostsValue('listen-host')([bad]), bad).toThrow(/^--listen-host needs a host name or an IP address without a port/);
		}
	});
});
