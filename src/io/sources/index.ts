import { concat } from 'rxjs';
import type { SourceConfig } from '../../config/pipeline-config.js';
import { commandSource } from './command.js';
import { fileSource } from './file.js';
import { sitemapSource } from './sitemap.js';
import { stdinSource } from './stdin.js';
import type { Source } from './source.js';
import { urlsSource } from './urls.js';

export { commandSource } from './command.js';
export { fileSource } from './file.js';
export { readItems } from './items.js';
export { sitemapSource, type SitemapSourceOptions } from './sitemap.js';
export { parseSitemap, type SitemapDocument, type SitemapEntry } from './sitemap-xml.js';
export { stdinSource } from './stdin.js';
export { labelled, type Source, type SourceContext } from './source.js';
export { urlsSource } from './urls.js';

/**
 * The source a pipeline file's `source` entry describes.
 *
 * @example
 * sourceFrom({ type: 'sitemap', url: 'https://example.org/sitemap.xml' })
 */
export function sourceFrom(config: SourceConfig): Source {
	switch (config.type) {
		case 'stdin':
			return stdinSource();
		case 'file':
			return fileSource(config);
		case 'urls':
			return urlsSource(config.urls);
		case 'sitemap':
			return sitemapSource(config);
		case 'command':
			return commandSource(config.command);
	}
}

/**
 * Several sources read one after the other, through the same valve.
 *
 * @example
 * sources([stdinSource(), fileSource({ path: 'more.txt' })])(context)
 */
export function sources(list: readonly Source[]): Source {
	return (context) => concat(...list.map((source) => source(context)));
}
