import type { ProbeResult } from '../../domain/task/types.js';

/**
 * Compares a HEAD with the GET of the same URL: a host may use HEAD only when it tells
 * the same story (status and validators). 405/501 mean HEAD is not supported.
 *
 * @example
 * compareHeadGet(head, get) // { agree: false, reason: 'HEAD gave ETag "old", GET "new"' }
 */
export function compareHeadGet(head: ProbeResult, get: ProbeResult): { agree: boolean; reason: string } {
	if (head.status === 405 || head.status === 501) return { agree: false, reason: `HEAD answered ${head.status}` };
	if (head.error && !get.error) return { agree: false, reason: `HEAD failed: ${head.error.code}` };
	if (head.status !== get.status) return { agree: false, reason: `HEAD answered ${head.status}, GET ${get.status}` };
	if (head.etag !== get.etag) return { agree: false, reason: `HEAD gave ETag ${head.etag ?? 'none'}, GET ${get.etag ?? 'none'}` };
	if (head.lastModified !== get.lastModified) {
		return { agree: false, reason: `HEAD gave Last-Modified ${head.lastModified ?? 'none'}, GET ${get.lastModified ?? 'none'}` };
	}
	return { agree: true, reason: 'HEAD agreed with GET' };
}
