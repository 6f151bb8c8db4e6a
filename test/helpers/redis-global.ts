import { REDIS_INSTALL, REDIS_SERVER } from './redis.js';

/**
 * Vitest global setup: runs once per `vitest run`, so a machine without redis-server
 * gets one line about the skipped Redis suites, not one per test file. Under CI=true
 * the suites fail instead (see describeRedis).
 */
export default function setup(): void {
	if (!REDIS_SERVER && process.env['CI'] !== 'true') {
		process.stderr.write(`redis: skipping the Redis store suites: redis-server is not installed; install with: ${REDIS_INSTALL}\n`);
	}
}
