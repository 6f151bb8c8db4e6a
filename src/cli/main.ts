import { crawlCommand } from './commands/crawl.js';
import { dueCommand } from './commands/due.js';
import { exportCommand, importCommand } from './commands/export.js';
import { historyCommand } from './commands/history.js';
import { reportCommand } from './commands/report.js';
import { logCommand } from './commands/log.js';
import { diffCommand } from './commands/diff.js';
import { fetchCommand } from './commands/fetch.js';
import { hostsCommand } from './commands/hosts.js';
import { pruneCommand } from './commands/prune.js';
import { checkCommand } from './commands/check.js';
import { runCommand } from './commands/run.js';
import { schemaCommand } from './commands/schema.js';
import { statsCommand } from './commands/stats.js';
import { sweepCommand } from './commands/sweep.js';
import { watchCommand } from './commands/watch.js';
import { workerCommand } from './commands/worker.js';
import { warcIndexCommand } from './commands/warc-index.js';
import { rulesCommand } from './commands/rules.js';
import { noiseCommand } from './commands/noise.js';
import { robotsCommand } from './commands/robots.js';
import { workersCommand } from './commands/workers.js';
import { processIo, type CliIo } from './io.js';
import { runCommands } from './parser.js';
import { pipelineFlagHint } from './pipeline-flag-hint.js';

/** Every command, in the order `revisit --help` lists them. */
const COMMANDS = [
	sweepCommand,
	watchCommand,
	fetchCommand,
	crawlCommand,
	statsCommand,
	hostsCommand,
	dueCommand,
	exportCommand,
	importCommand,
	historyCommand,
	reportCommand,
	logCommand,
	diffCommand,
	pruneCommand,
	workerCommand,
	workersCommand,
	rulesCommand,
	noiseCommand,
	robotsCommand,
	warcIndexCommand,
	runCommand,
	checkCommand,
	schemaCommand,
];

/**
 * Runs the CLI and resolves to the exit status; never calls process.exit, so it can
 * run in-process in tests.
 *
 * @example
 * process.exitCode = await main(['sweep', '--ndjson'], processIo());
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
	return runCommands(argv, io, COMMANDS, pipelineFlagHint);
}

export { favourMemory } from './heap.js';
