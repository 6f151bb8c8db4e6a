import { defineConfig } from 'vitest/config';

export default defineConfig({
	test: {
		include: ['test/**/*.test.ts'],
		// Says once when the Redis suites are skipped (no redis-server on this machine).
		globalSetup: ['test/helpers/redis-global.ts'],
		testTimeout: 30_000,
		hookTimeout: 30_000,
		// expect.poll waits for what a server or a child process will see: 1 s (vitest's default)
		// is too short on a loaded machine, where a worker thread or a browser takes longer to start.
		expect: { poll: { timeout: 15_000 } },
		// Tests start real servers and child processes; the machines have two cores.
		maxWorkers: 2,
		// Each worker imports src/ once for all its files, not once per file: a fresh module
		// graph per file (vitest's default) took 227 s of a full run's CPU in imports, against
		// 20 s so, and the run 690 s against 483 s side by side. It is safe here because src/
		// keeps no module-level state (docs/internals/1-architecture.md), and no test mocks a module,
		// stubs a global or the environment, or fakes timers.
		isolate: false,
		// The suites written before robots.txt support count every request their origins see,
		// and their origins have no robots.txt: they run with robots.txt ignored, as a user's
		// own sites would. The robots suites (test/cli/robots.test.ts) pass --robots obey, and
		// one of them runs the CLI with the variable empty to check the default. The docs
		// examples (test/docs/examples.test.ts) unset it: they run as users run them.
		env: { REVISIT_ROBOTS: 'ignore' },
	},
});
