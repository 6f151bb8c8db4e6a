#!/usr/bin/env node
// dist/cli.js is dist/cli/main.js bundled into one file (scripts/bundle.js): it starts faster.
import { favourMemory, main } from '../dist/cli.js';

favourMemory();
process.exitCode = await main(process.argv.slice(2));
