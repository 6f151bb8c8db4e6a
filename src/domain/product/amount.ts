import { parsePrice } from './price.js';
import type { ParsedPrice } from '../../store/model/product.js';

/**
 * A price as structured data writes it: a number, or a string that is only a number
 * (`"2879.20"`, `"1.299,00"`, `"1,299.00"`, `"19,99"`), or else a string with words or a
 * symbol around it (`"$19.99"`), which goes to `parsePrice`. Undefined for anything else
 * and for an empty string. A negative or absurd number is given as it is: `priceRead`
 * names it and refuses it.
 *
 * Where both separators appear, the last is the decimal one. A lone `.` is always decimal
 * (schema.org asks for a dot, so `"1.299"` is 1.299); a lone `,` is decimal unless exactly
 * three digits follow it (`"19,99"` is 19.99, `"1,299"` is 1299); a separator that repeats
 * groups thousands.
 *
 * @example
 * amountOf('1.299,00') // { amount: 1299 }
 * amountOf(2879.2) // { amount: 2879.2 }
 */
export function amountOf(value: unknown): ParsedPrice | undefined {
	if (typeof value === 'number') return Number.isNaN(value) ? undefined : { amount: value };
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (text === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(text)) return { amount: Number(text) };
	const plain = plainNumber(text);
	if (plain !== undefined) return { amount: plain };
	return parsePrice(text);
}

/** A number written with thousands and decimal separators and nothing else, or undefined. */
function plainNumber(text: string): number | undefined {
	if (!/^\d[\d.,'\u00a0\u202f ]*$/.test(text) || /[^\d]$/.test(text)) return undefined;
	const separators = text.replace(/\d/g, '');
	const last = text.search(/[.,][^.,]*$/);
	let decimal = -1;
	if (last !== -1) {
		const mark = text[last]!;
		const lone = separators.split('').filter((c) => c === mark).length === 1;
		const both = separators.includes('.') && separators.includes(',');
		const digitsAfter = text.length - last - 1;
		if (both || (lone && (mark === '.' || digitsAfter !== 3))) decimal = last;
	}
	const whole = (decimal === -1 ? text : text.slice(0, decimal)).replace(/[^\d]/g, '');
	const fraction = decimal === -1 ? '' : text.slice(decimal + 1);
	if (!/^\d*$/.test(fraction)) return undefined;
	return Number(fraction ? `${whole}.${fraction}` : whole);
}
