// A bench flag that counts something (`--urls 1_000_000`): a positive integer, `_` allowed between digits.

/**
 * @example
 * countFlag({ urls: '1_000_000' }, 'urls') // 1000000
 */
export function countFlag(flags, name) {
	const value = Number(String(flags[name]).replaceAll('_', ''));
	if (!Number.isInteger(value) || value < 1) throw new TypeError(`--${name} must be a positive integer`);
	return value;
}
