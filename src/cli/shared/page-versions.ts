import { UsageError } from '../../base/errors/index.js';
import { normaliseUrl } from '../../stages/normalise.js';
import { describeStore } from '../../store/open.js';
import type { StoreReader } from '../../store/model/types.js';
import { pageVersions, type PageVersion } from '../../domain/versions/index.js';

/**
 * The URL argument of `log` and `diff` in the store's normal form (lowercase host, no
 * default port, no fragment), as a sweep stored it; a UsageError when it is no http(s) URL.
 *
 * @example
 * urlArgument('HTTPS://Example.org:443/a#top') // 'https://example.org/a'
 */
export function urlArgument(text: string): string {
	const result = normaliseUrl(text);
	if ('problem' in result) throw new UsageError(`URL: ${JSON.stringify(text)}: ${result.problem}`);
	return result.url;
}

/**
 * A page's versions, newest first, or why there are none as a sentence for stderr: the
 * URL is not in the store (naming a stored URL that differs only by a trailing slash), or
 * it is, with no version kept yet.
 *
 * @example
 * const page = await versionsOf(store, 'https://example.org/', '.revisit');
 * if ('problem' in page) io.stderr.write(`revisit: ${page.problem}\n`);
 */
export async function versionsOf(store: StoreReader, url: string, storeSpec: string): Promise<{ versions: PageVersion[] } | { problem: string }> {
	const versions = await pageVersions(store, url);
	if (versions.length > 0) return { versions };
	const near = url.endsWith('/') ? url.slice(0, -1) : `${url}/`;
	const [record, nearRecord] = await store.getMany([url, near]);
	if (record !== undefined)
		return {
			problem:
				`${url} has no version kept in ${describeStore(storeSpec)} yet: versions are kept from the first check with text keeping on (--keep-text,` +
				` --keep-versions)`,
		};
	const nearForm = normaliseUrl(near);
	const hint = nearRecord !== undefined && 'url' in nearForm && nearForm.url === near ? `; did you mean ${near}?` : '';
	return { problem: `${url} is not in ${describeStore(storeSpec)}${hint}` };
}
