#!/usr/bin/env node
// dist/cli.js is dist/cli/main.js bundled into one file (scripts/bundle.js): it starts faster.
// `revisit log` and `revisit diff` load dist/cli-pages.js instead, the same CLI with those
// two commands only: a tenth of the code to load, for a quick look at a page's past.
const pages = process.argv[2] === 'log' || process.argv[2] === 'diff';
const { favourMemory, main } = pages ? await import('../dist/cli-pages.js').then(({ favourMemory, pagesMain }) => ({ favourMemory, main: pagesMain })) : await import('../dist/cli.js');

favourMemory();
process.exitCode = await main(process.argv.slice(2));
