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
	},
});
