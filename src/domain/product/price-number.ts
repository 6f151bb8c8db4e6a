/**
 * The numbers in a price text, and what each is worth under the separator conventions
 * shops use (`1,234.56`, `1.234,56`, `1 234,56`, `1'234.56`, `1,23,456.00`, `1234,-`).
 */

/** A run of digits and separators that may be an amount, as found in the text. */
export interface NumberToken {
	start: number;
	end: number;
	/** The digits with their separators; a space or `'` only ever groups thousands here. */
	raw: string;
}

/** How to read a token: the decimal separator when known, and whether the currency has three decimals. */
export interface ReadOptions {
	decimal?: ',' | '.' | undefined;
	threeDecimals?: boolean | undefined;
}

// Spaces shops put between digit groups, made plain spaces (one for one, so offsets hold).
const SPACES = /[\u00a0\u2007\u2009\u200a\u202f\t\n\r]/g;

// An underscore between digit groups (`1_999.01€`, as in code) is a group separator too.
const UNDERSCORE = /(?<=\d)_(?=\d{3}(?!\d))/g;

/** The text with NBSP, narrow NBSP, thin spaces and digit-group underscores as plain spaces; the same length. */
export const normalizeSpaces = (text: string): string => text.replace(SPACES, ' ').replace(UNDERSCORE, ' ');

const isDigit = (char: string | undefined): boolean => char !== undefined && char >= '0' && char <= '9';
const DIGITS = /\d*/y;
const THREE = /\d{3}(?!\d)/y;
const TWO_AFTER_SPACE = / \d{2}(?!\d)/y;
const NO_DECIMALS = / ?[-–—]/y; // "1234,-", "105. –": a whole amount
const EURO_DECIMALS = /€(?:\d{1,3}|\s\d{2})(?!\d)/y; // "35€99", "35€ 99"

function sticky(pattern: RegExp, text: string, at: number): string | undefined {
	pattern.lastIndex = at;
	return pattern.exec(text)?.[0];
}

/**
 * Every number in a (space-normalized) text, left to right, with its separators. A space
 * joins digit groups only before exactly three digits ("1 298,00", not "4.81 16").
 *
 * @example
 * scanNumbers('1 099,00 € tax incl.').map((t) => t.raw) // ['1 099,00']
 */
export function scanNumbers(text: string): NumberToken[] {
	const tokens: NumberToken[] = [];
	let i = 0;
	while (i < text.length) {
		const char = text[i]!;
		const startsHere = isDigit(char) ? !isDigit(text[i - 1]) : (char === '.' || char === ',') && isDigit(text[i + 1]) && !isDigit(text[i - 1]);
		if (!startsHere) {
			i++;
			continue;
		}
		const token = scanOne(text, i);
		tokens.push(token);
		i = Math.max(token.end, i + 1);
	}
	return tokens;
}

function scanOne(text: string, start: number): NumberToken {
	let j = start;
	let raw = '';
	const take = (part: string): void => {
		raw += part;
		j += part.length;
	};
	if (!isDigit(text[j])) take(text[j]!);
	take(sticky(DIGITS, text, j)!);
	let firstGroup = raw.length;
	for (;;) {
		const char = text[j];
		const hasDecimal = /[.,]/.test(raw);
		if ((char === '.' || char === ',') && isDigit(text[j + 1])) take(char + sticky(DIGITS, text, j + 1)!);
		else if ((char === '.' || char === ',') && !raw.includes(char) && sticky(TWO_AFTER_SPACE, text, j + 1)) {
			raw += char + text.slice(j + 2, j + 4); // "119. 95": a stray space after the point
			j += 4;
		} else if (char === '.' || char === ',') {
			const dash = sticky(NO_DECIMALS, text, j + 1);
			if (dash) j += 1 + dash.length;
			break;
		} else if ((char === "'" || char === '’') && sticky(THREE, text, j + 1)) take(char + text.slice(j + 1, j + 4));
		else if (char === ' ' && !hasDecimal && firstGroup <= 3 && sticky(THREE, text, j + 1)) {
			take(' ' + text.slice(j + 1, j + 4));
			firstGroup = 0;
		} else if (char === '€' && /^\d+$/.test(raw) && sticky(EURO_DECIMALS, text, j)) {
			const part = sticky(EURO_DECIMALS, text, j)!;
			raw += '€' + part.slice(1).trim();
			j += part.length;
			break;
		} else break;
	}
	return { start, end: j, raw };
}

/** Whether digit groups split by one separator are well formed: 1,234,567 or Indian 1,23,45,678. */
function validGroups(groups: string[]): boolean {
	const [first, ...rest] = groups;
	if (!first || first.length > 3 || rest.length === 0) return rest.length === 0 && !!first;
	const last = rest.at(-1)!;
	if (last.length !== 3) return false;
	const middle = rest.slice(0, -1);
	return middle.every((group) => group.length === 3) || (first.length <= 2 && middle.every((group) => group.length === 2));
}

/**
 * The value of a token's digits, or undefined when its separators make no amount (a date
 * such as `15.08.2017`). One `.` or `,` before exactly three digits groups thousands
 * (`1.727` is 1727) unless the integer part is 0 or the currency has three decimals.
 *
 * @example
 * readAmount('1.234,56') // 1234.56
 * readAmount('1,23,456.00') // 123456
 * readAmount('1.500', { threeDecimals: true }) // 1.5
 */
export function readAmount(raw: string, options: ReadOptions = {}): number | undefined {
	if (raw.includes('€')) {
		const [whole, cents] = raw.split('€');
		return Number(`${whole}.${cents}`);
	}
	let text = raw.replace(/[ '’]/g, '');
	const { decimal } = options;
	if (text[0] === '.' || text[0] === ',') {
		const rest = text.slice(1);
		if (decimal ? text[0] === decimal && !rest.includes(decimal) : !/[.,]/.test(rest)) {
			return Number(`0.${rest.replace(/[.,]/g, '')}`);
		}
		text = rest;
	}
	const separator = decimalSeparator(text, options);
	const cut = separator ? text.lastIndexOf(separator) : text.length;
	const whole = text.slice(0, cut);
	const fraction = text.slice(cut + 1);
	const grouping = whole.match(/[.,]/g);
	if (grouping && (new Set(grouping).size > 1 || !validGroups(whole.split(grouping[0]!)))) return undefined;
	const digits = whole.replace(/[.,]/g, '');
	return Number(fraction ? `${digits}.${fraction}` : digits);
}

function decimalSeparator(text: string, options: ReadOptions): string | undefined {
	if (options.decimal) return text.includes(options.decimal) ? options.decimal : undefined;
	const lastDot = text.lastIndexOf('.');
	const lastComma = text.lastIndexOf(',');
	if (lastDot >= 0 && lastComma >= 0) return lastDot > lastComma ? '.' : ',';
	const separator = lastDot >= 0 ? '.' : lastComma >= 0 ? ',' : undefined;
	if (!separator || text.indexOf(separator) !== text.lastIndexOf(separator)) return undefined;
	const [before, after] = text.split(separator) as [string, string];
	const groupsThousands = after.length === 3 && before.length <= 3 && before !== '0' && !options.threeDecimals;
	return groupsThousands ? undefined : separator;
}
