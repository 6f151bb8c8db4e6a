import { createHash } from 'node:crypto';
import path from 'node:path';

/**
 * A safe, stable relative path for a URL's body: a folder per host (and port), then the
 * path and query flattened to `[A-Za-z0-9._-]`, cut to a sane length, with a digest of
 * the whole URL so that two URLs never share a file. The same URL always maps to the
 * same file, so a re-fetch overwrites the old body.
 *
 * @example
 * bodyFileName('https://Example.org:8443/a/b?x=1') // 'example.org_8443/a_b_x_1-3f2c9e1d0a4b.html'... (extension from the path, else none)
 */
export function bodyFileName(url: string): string {
	const parsed = new URL(url);
	const host = parsed.port ? `${parsed.hostname}_${parsed.port}` : parsed.hostname;
	const digest = createHash('sha256').update(url).digest('hex').slice(0, 12);
	const rest = `${parsed.pathname}${parsed.search}`.replace(/^\/+/, '');
	const extension = /\.[a-z0-9]{1,8}$/i.exec(parsed.pathname)?.[0]?.toLowerCase() ?? '';
	const stem = (extension ? rest.slice(0, rest.lastIndexOf(extension)) : rest)
		.replace(/[^A-Za-z0-9._-]+/g, '_')
		.replace(/^[._]+|_+$/g, '')
		.slice(0, 100);
	return path.posix.join(safeSegment(host), `${stem || 'index'}-${digest}${extension}`);
}

function safeSegment(text: string): string {
	const cleaned = text.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_');
	return cleaned || '_';
}
