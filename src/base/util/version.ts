import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The package's own package.json: one level above the bundled CLI (dist/cli.js and its
// chunks), three above this module compiled (dist/base/util/) or as a source (src/base/util/).
const manifest = ['../package.json', '../../../package.json'].map((path) => new URL(path, import.meta.url)).find((url) => existsSync(fileURLToPath(url)));

/** The package version, read from package.json. */
export const VERSION: string = (JSON.parse(readFileSync(manifest ?? new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
