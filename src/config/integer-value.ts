import { UsageError } from '../base/errors/index.js';

/**
 * A flag's or setting's whole number, at least `min`: a UsageError naming the flag
 * otherwise (see values.ts, which re-exports it with the other checks).
 *
 * @example
 * integerValue('last', 1)('5') // 5
 */
export const integerValue =
	(flag: string, min: number) =>
	(value: unknown): number => {
		const number = Number(value);
		if (!Number.isInteger(number) || number < min || String(value).trim() === '') {
			throw new UsageError(`--${flag} must be an integer >= ${min} (got ${JSON.stringify(value)})`);
		}
		return number;
	};
