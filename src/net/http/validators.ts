/** Longest validator revisit stores: a longer one is a quirk, not a tag worth echoing. */
export const MAX_VALIDATOR_BYTES = 1024;

/**
 * Whether a validator may be stored and later echoed in a request header: only
 * characters a header value may carry (no CR, LF or other controls), at most 1 KiB.
 *
 * @example
 * isSafeValidator('"abc"') // true
 * isSafeValidator('"a"\r\nSet-Cookie: x') // false
 */
export function isSafeValidator(value: string): boolean {
	return value.length <= MAX_VALIDATOR_BYTES && /^[\t\x20-\x7e\x80-\xff]*$/.test(value);
}
