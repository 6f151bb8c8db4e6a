/** Option checks shared by stages; each throws TypeError, the mark of a programmer mistake. */
export function positiveInteger(name: string, value: number): number {
	if (!Number.isInteger(value) || value < 1) {
		throw new TypeError(`Expected \`${name}\` to be a positive integer, got \`${value}\``);
	}
	return value;
}

export function nonNegativeInteger(name: string, value: number): number {
	if (!Number.isInteger(value) || value < 0) {
		throw new TypeError(`Expected \`${name}\` to be a non-negative integer, got \`${value}\``);
	}
	return value;
}

export function positiveNumber(name: string, value: number): number {
	if (!Number.isFinite(value) || value <= 0) {
		throw new TypeError(`Expected \`${name}\` to be a positive number, got \`${value}\``);
	}
	return value;
}
