import { UsageError } from '../errors/index.js';

/** Flag checks for yargs `coerce`, so a bad value names its flag and exits 2. */
export const integerFlag = (flag: string, min: number) => (value: unknown): number => {
	const number = Number(value);
	if (!Number.isInteger(number) || number < min || String(value).trim() === '') {
		throw new UsageError(`--${flag} must be an integer >= ${min} (got ${JSON.stringify(value)})`);
	}
	return number;
};

export const numberFlag = (flag: string) => (value: unknown): number | undefined => {
	if (value === undefined) return undefined;
	const number = Number(value);
	if (!Number.isFinite(number) || number <= 0 || String(value).trim() === '') {
		throw new UsageError(`--${flag} must be a number > 0 (got ${JSON.stringify(value)})`);
	}
	return number;
};

export const headerFlag = (flag: string) => (value: unknown): string => {
	const text = String(value);
	if (!/^[\x20-\x7e]+$/.test(text) || text.trim() === '') {
		throw new UsageError(`--${flag} must be printable ASCII (got ${JSON.stringify(value)})`);
	}
	return text.trim();
};

export const rateFlag = (flag: string) => (value: unknown): number => {
	const number = Number(value);
	if (!Number.isFinite(number) || number < 0 || number > 1 || String(value).trim() === '') {
		throw new UsageError(`--${flag} must be a fraction from 0 to 1 (got ${JSON.stringify(value)})`);
	}
	return number;
};
