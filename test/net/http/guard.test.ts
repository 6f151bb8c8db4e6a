import { describe, expect, it } from 'vitest';
import { exitStatusFor, RevisitError } from '../../../src/base/errors/index.js';
import { assertPublicHost, denyPrivateLookup, PrivateAddressError } from '../../../src/net/http/guard.js';

describe('PrivateAddressError', () => {
	it("is a RevisitError with the code EPRIVATE, which the URL's verdict carries, for a private IP literal", () => {
		let caught: unknown;
		try {
			assertPublicHost('http://127.0.0.1:8080/');
		} catch (error) {
			caught = error;
		}
		expect(caught).toBeInstanceOf(RevisitError);
		expect(caught).toBeInstanceOf(PrivateAddressError);
		expect(caught).toMatchObject({ name: 'PrivateAddressError', code: 'EPRIVATE', message: '127.0.0.1 is a private or loopback address (--deny-private)' });
		expect(exitStatusFor(caught)).toBe(1);
	});

	it('is what the lookup gives for a name that resolves to a loopback address', async () => {
		const lookup = denyPrivateLookup();
		const error = await new Promise<unknown>((resolve) => lookup('localhost', {}, (failure) => resolve(failure)));
		expect(error).toBeInstanceOf(RevisitError);
		expect(error).toMatchObject({ code: 'EPRIVATE' });
		expect((error as Error).message).toMatch(/^localhost resolves to .+, which is a private or loopback address \(--deny-private\)$/);
	});
});
