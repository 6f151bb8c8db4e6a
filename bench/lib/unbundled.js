// The CLI from the unbundled build (dist/cli/main.js), as bin/revisit.js ran it before the
// bundle: bench/profile.js uses it so that a profile's self time can be told apart by
// package (in the bundle, got, rxjs and revisit all live in dist/cli.js).
//   node bench/lib/unbundled.js sweep ...          (this checkout's dist/)
//   REVISIT_DIST=/other/build/dist node bench/lib/unbundled.js sweep ...
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = process.env.REVISIT_DIST ?? new URL('../../dist/', import.meta.url).pathname;
const { main } = await import(pathToFileURL(path.join(dist, 'cli', 'main.js')).href);
process.exitCode = await main(process.argv.slice(2));
