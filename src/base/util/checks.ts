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

/**
 * One of a closed set of words (a setting's choices); the message lists them as a
 * sentence says them, "get, head or auto". `also` names where else the value may come
 * from, such as an environment variable.
 *
 * @example
 * oneOf('method', ['get', 'head', 'auto'], 'put') // OptionError: Expected `method` to be get, head or auto, got `put`
 */
export function oneOf<T extends string>(name: string, choices: readonly T[], value: unknown, also = ''): T {
	if (!choices.includes(value as T)) {
		const words = choices.length > 1 ? `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}` : String(choices[0]);
		throw new OptionError(name, `Expected \`${name}\`${also} to be ${words}, got \`${String(value)}\``);
	}
	return value as T;
}
