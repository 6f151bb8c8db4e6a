import { RevisitError, type ErrorCode } from '../../../base/errors/index.js';

/**
 * A failure of the fleet itself, not of a URL: `FLEET_UNREACHABLE` (Redis away past
 * `--redis-timeout`), `FLEET_FAILED` (Redis refused a command), `FLEET_USAGE` (`--workers`
 * without a Redis store). Each ends the run with exit 2.
 */
export class FleetError extends RevisitError {
	override readonly name = 'FleetError';
	constructor(code: Extract<ErrorCode, `FLEET_${string}`>, message: string, options?: { cause?: unknown }) {
		super(code, message, options);
	}
}
