import { OptionError } from '../errors/index.js';
/** Option checks shared by stages; each throws OptionError (code OPTION_INVALID), naming the option. */
export function positiveInteger(name: string, value: number): number {
	if (!Number.isInteger(value) || value < 1) {
		throw new OptionError(name, `Expected \`${name}\` to be a positive integer, got \`${value}\``);
	}
	return value;
}

export function nonNegativeInteger(name: string, value: number): number {
	if (!Number.isInteger(value) || value < 0) {
		throw new OptionError(name, `Expected \`${name}\` to be a non-negative integer, got \`${value}\``);
	}
	return value;
}

export function positiveNumber(name: string, value: number): number {
	if (!Number.isFinite(value) || value <= 0) {
		throw new OptionError(name, `Expected \`${name}\` to be a positive number, got \`${value}\``);
	}
	return value;
}
