import { readStatement } from './statement.js';
import { AVAILABILITIES, type Availability } from '../../store/model/product.js';

/** The short names squeezed (`instock`), so `in_stock`, `In Stock` and `INSTOCK` find `InStock`. */
const SHORT = new Map<string, Availability>(AVAILABILITIES.map((name) => [name.toLowerCase(), name]));

/**
 * The schema.org availability `value` names: a schema.org URL (`https://schema.org/InStock`,
 * `schema:InStock`), a short name in any case or spelling (`instock`, `in_stock`, `OutOfStock`),
 * or a shop's words ("Sold out", "oos", "Ausverkauft", "Only 3 left", "isn't in stock"), read as
 * a statement (`readStatement`). Undefined when the text says none of these.
 *
 * @example
 * availabilityOf('http://schema.org/InStock') // 'InStock'
 * availabilityOf('Nicht lieferbar') // 'OutOfStock'
 * availabilityOf('Ships in 3 days') // undefined
 */
export function availabilityOf(value: string): Availability | undefined {
	const bare = value.trim().replace(/^https?:\/\/(www\.)?schema\.org\/|^schema:/i, '');
	const short = SHORT.get(bare.toLowerCase().replace(/[\s_-]+/g, ''));
	if (short) return short;
	return readStatement(bare)?.availability;
}
