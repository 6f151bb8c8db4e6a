/**
 * A count and its noun, plural unless the count is 1: what every count on stderr is
 * written with, so none reads "1 URLs".
 *
 * @example
 * counted(1, 'URL') // '1 URL'
 * counted(3, 'second fetch', 'second fetches') // '3 second fetches'
 */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
	return `${count} ${count === 1 ? noun : plural}`;
}
