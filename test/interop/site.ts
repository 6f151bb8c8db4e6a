import { rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { mulberry32 } from '../../bench/lib/prng.js';
import { openTempDir } from './servers/launch.js';

const WORDS = (
	'archive bandwidth cache client conditional content crawler date digest document encoding entity ' +
	'freshness hash header index latency level link match modified network origin page record request ' +
	'resource response revision server since stale status store strong sweep token transfer update validator weak'
).split(' ');

const DAY_MS = 86_400_000;

/** A static site on disk: HTML pages in a temp docroot, every file dated one day ago. */
export interface Site {
	root: string;
	/** Page paths, e.g. `/page-007.html`. */
	paths: string[];
	urls(origin: string): string[];
	/**
	 * Rewrites each page and dates it `mtime` (default: a minute ago, one second apart per
	 * page). Not "now": Apache sends a weak ETag for a file modified within the last second.
	 */
	edit(paths: string[], mtime?: Date): Promise<void>;
	/**
	 * Rewrites each page as a redeploy that keeps file times does (rsync -t, cp -p, tar x):
	 * new content of another size, the old modification time. Resolves to the pages' old
	 * and new sizes.
	 */
	redeploy(paths: string[]): Promise<Array<{ before: number; after: number }>>;
	remove(paths: string[]): Promise<void>;
	cleanup(): Promise<void>;
}

/**
 * Writes `pages` compressible, varied HTML pages of 2–7 KB into a fresh docroot, dated
 * one day ago as in production (a file younger than a second gets a weak ETag from Apache).
 *
 * @example
 * const site = await makeSite(60);
 * await site.edit(['/page-003.html']);
 */
export async function makeSite(pages = 60): Promise<Site> {
	const root = await openTempDir('revisit-interop-site-');
	const paths = Array.from({ length: pages }, (_, i) => `/page-${String(i).padStart(3, '0')}.html`);
	const revisions = new Map<string, number>();
	const file = (page: string) => path.join(root, page.slice(1));
	const write = async (page: string, mtime: Date) => {
		await writeFile(file(page), renderPage(page, revisions.get(page) ?? 0));
		await utimes(file(page), mtime, mtime);
	};
	const dayAgo = new Date(Math.floor((Date.now() - DAY_MS) / 1000) * 1000);
	await Promise.all(paths.map((page) => write(page, dayAgo)));
	return {
		root,
		paths,
		urls: (origin) => paths.map((page) => `${origin}${page}`),
		edit: async (edited, mtime) => {
			const base = Math.floor(Date.now() / 1000) * 1000 - 60_000;
			await Promise.all(
				edited.map((page, i) => {
					revisions.set(page, (revisions.get(page) ?? 0) + 1);
					return write(page, mtime ?? new Date(base + i * 1000));
				}),
			);
		},
		redeploy: async (pages) =>
			Promise.all(
				pages.map(async (page) => {
					const before = await stat(file(page));
					revisions.set(page, (revisions.get(page) ?? 0) + 1);
					await write(page, before.mtime);
					return { before: before.size, after: (await stat(file(page))).size };
				}),
			),
		remove: async (removed) => {
			await Promise.all(removed.map((page) => rm(file(page))));
		},
		cleanup: () => rm(root, { recursive: true, force: true }),
	};
}

function renderPage(page: string, revision: number): string {
	const number = Number(page.replace(/\D/g, ''));
	const random = mulberry32(number * 100_003 + revision * 7919 + 1);
	const sentence = () => {
		const words = Array.from({ length: 8 + Math.floor(random() * 12) }, () => WORDS[Math.floor(random() * WORDS.length)]!);
		return `${words.join(' ')}.`;
	};
	const paragraphs = Array.from(
		{ length: 6 + Math.floor(random() * 14) },
		() => `<p>${Array.from({ length: 3 + Math.floor(random() * 3) }, sentence).join(' ')}</p>`,
	);
	return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Page ${number}, revision ${revision}</title></head>
<body>
<h1>Page ${number}</h1>
${paragraphs.join('\n')}
</body>
</html>
`;
}
