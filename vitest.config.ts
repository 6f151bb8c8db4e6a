import { defineConfig } from 'vitest/config';

export default defineConfig({
	test: {
		include: ['test/**/*.test.ts'],
		// Says once when the Redis suites are skipped (no redis-server on this machine).
		globalSetup: ['test/helpers/redis-global.ts'],
		testTimeout: 30_000,
		hookTimeout: 30_000,
		// Tests start real servers and child processes; the machines have two cores.
		maxWorkers: 2,
		// The suites written before robots.txt support count every request their origins see,
		// and their origins have no robots.txt: they run with robots.txt ignored, as a user's
		// own sites would. The robots suites (test/cli/robots.test.ts) pass --robots obey, and
		// one of them runs the CLI with the variable empty to check the default. The docs
		// examples (test/docs/examples.test.ts) unset it: they run as users run them.
		env: { REVISIT_ROBOTS: 'ignore' },
	},
});
