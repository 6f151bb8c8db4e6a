// Bundles the CLI into dist/cli.js (with chunks it loads on demand) and dist/cli-pages.js,
// after tsc has compiled src/ to dist/.
//
//   node scripts/bundle.js        (part of `npm run build`)
//
// Why: loading the CLI as ~900 separate modules (all of rxjs's index, got, yargs, ajv)
// took about 0.5 s of a 0.7 s start, on every cron run and every `revisit` in a shell
// pipeline. One bundled file, with only the rxjs operators in use, starts in about half
// that. The library (dist/index.js) stays unbundled: it is imported, not spawned.
//
// The bundle sits directly in dist/, so `../package.json` from it is the package's own,
// as it is from dist/base/util/version.js. classic-level stays external: it loads a native addon
// from its own directory. @redis/client stays external too (1.2 MB that every start would
// parse): src/store/redis/link.ts imports it dynamically, only when a Redis store is opened.
// warcio likewise, imported only by `revisit warc-index`, and nodemailer, imported only
// when a --notify URL is a mailto:// one (src/io/notify/mail.ts), and playwright-core (some
// 8 MB), imported only when a page is rendered (src/net/render/).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

// rxjs's package exports give a Node build its CommonJS files, which cannot be tree-shaken:
// all of rxjs (340 KB) would be parsed and run at every start. Its ES2015 modules (what its
// `es2015` condition names; the package declares no side effects) shake down to the 45 KB in use.
const rxjsModules = {
	name: 'rxjs-esm',
	setup(build) {
		const root = path.dirname(createRequire(import.meta.url).resolve('rxjs/package.json'));
		build.onResolve({ filter: /^rxjs$/ }, () => ({ path: path.join(root, 'dist', 'esm', 'index.js') }));
	},
};

// `revisit log` and `revisit diff` (bin/revisit.js picks it for them): the same parser with
// those two commands only, 0.4 MB rather than 3.2 MB to load (bench/VERSIONS.md), in one
// file: it never loads a chunk of the full CLI's.
//
// The full CLI is split: what it imports with `await import()` (Ajv for a rules or pipeline
// file, tough-cookie for cookies, the watch's metrics...) goes into chunk files beside it,
// loaded only by the runs that reach that import, so that a sweep does not parse them
// (bench/PERF.md, start-up). The chunks sit in dist/ too, so that `../package.json` and the
// thread body's path (net/transports/threads/thread-entry.ts) resolve from them as from cli.js.
// Few dynamic imports, few chunks: each file loaded costs ~0.6 ms beyond its bytes, so a
// dynamic import per command (tried: 60 files for a sweep) won back nothing.
const common = {
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	// ESM builds where a package has one (jsonc-parser's main is a UMD build that requires at run time).
	mainFields: ['module', 'main'],
	external: ['classic-level', '@redis/client', 'warcio', 'nodemailer', 'playwright-core'],
	plugins: [rxjsModules],
	// CommonJS dependencies call require(); an ESM bundle has none of its own.
	banner: { js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);" },
	logLevel: 'warning',
};

// A rebuild names its chunks anew (by content hash): drop the last build's.
for (const name of fs.readdirSync('dist')) if (/^chunk-[\w-]+\.js$/.test(name)) fs.rmSync(path.join('dist', name));

await build({ ...common, entryPoints: { cli: 'dist/cli/main.js' }, outdir: 'dist', splitting: true, chunkNames: 'chunk-[hash]' });
await build({ ...common, entryPoints: ['dist/cli/pages-main.js'], outfile: 'dist/cli-pages.js' });
