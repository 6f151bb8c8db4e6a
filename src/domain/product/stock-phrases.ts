import ar from './stock-phrases/ar.json' with { type: 'json' };
import cs from './stock-phrases/cs.json' with { type: 'json' };
import da from './stock-phrases/da.json' with { type: 'json' };
import de from './stock-phrases/de.json' with { type: 'json' };
import el from './stock-phrases/el.json' with { type: 'json' };
import en from './stock-phrases/en.json' with { type: 'json' };
import es from './stock-phrases/es.json' with { type: 'json' };
import fi from './stock-phrases/fi.json' with { type: 'json' };
import fr from './stock-phrases/fr.json' with { type: 'json' };
import he from './stock-phrases/he.json' with { type: 'json' };
import hu from './stock-phrases/hu.json' with { type: 'json' };
import id from './stock-phrases/id.json' with { type: 'json' };
import it from './stock-phrases/it.json' with { type: 'json' };
import ja from './stock-phrases/ja.json' with { type: 'json' };
import ko from './stock-phrases/ko.json' with { type: 'json' };
import nb from './stock-phrases/nb.json' with { type: 'json' };
import nl from './stock-phrases/nl.json' with { type: 'json' };
import pl from './stock-phrases/pl.json' with { type: 'json' };
import pt from './stock-phrases/pt.json' with { type: 'json' };
import ro from './stock-phrases/ro.json' with { type: 'json' };
import ru from './stock-phrases/ru.json' with { type: 'json' };
import sk from './stock-phrases/sk.json' with { type: 'json' };
import sv from './stock-phrases/sv.json' with { type: 'json' };
import tr from './stock-phrases/tr.json' with { type: 'json' };
import uk from './stock-phrases/uk.json' with { type: 'json' };
import zhCN from './stock-phrases/zh-CN.json' with { type: 'json' };
import zhTW from './stock-phrases/zh-TW.json' with { type: 'json' };
import { alternatives, fold } from './page/words.js';

/**
 * What a stock phrase means (src/domain/product/stock-phrases/*.json, one file per language):
 *
 * - `in`: the product can be had ("In stock", "Auf Lager", "在庫あり");
 * - `available`: the same, but a word used of much else ("available", "disponible"): it says
 *   so only standing alone ("Available now"); negated it says the product cannot be had;
 * - `out`, `soldout`, `discontinued`: it cannot ("Out of stock", "Ausverkauft", "Discontinued");
 * - `preorder`, `backorder`, `limited`: schema.org's PreOrder, BackOrder, LimitedAvailability;
 * - `cta`: a call to action only an unavailable product shows ("Notify me when available");
 * - `coming`: it will come, so it cannot be had now ("Coming soon", "入荷予定");
 * - `negator`: a word that negates an in-stock phrase after it ("not", "nicht", "tidak", "没有");
 *   `negator-after`, one that negates the phrase before it ("değil", "ありません", "In stock: no");
 * - `time`: a word that puts an in-stock phrase after it in the future ("will be", "bald", "when");
 *   `time-after`, one after it ("soon"); `from-date`, one after it followed by a date ("from 12 May");
 * - `other`: a word that makes a sentence about something else than the product's stock
 *   ("pickup", "delivery", "VAT relief").
 */
export const MEANINGS = [
	'in',
	'available',
	'out',
	'soldout',
	'discontinued',
	'preorder',
	'backorder',
	'limited',
	'cta',
	'coming',
	'negator',
	'negator-after',
	'time',
	'time-after',
	'from-date',
	'other',
] as const;

export type Meaning = (typeof MEANINGS)[number];

/** One phrase of a language's file: its text (folded when compiled; `{n}` a number, a leading `*` the rest of a word), what it means, and where it was seen. */
export interface StockPhrase {
	text: string;
	means: Meaning;
	seen: string;
}

/** A language's file. */
export interface StockLanguage {
	/** Its BCP 47 code: `de`, `zh-TW`. */
	language: string;
	name: string;
	phrases: StockPhrase[];
}

/** Every language's phrases, as the files give them. */
export const STOCK_LANGUAGES = [
	en,
	de,
	fr,
	es,
	it,
	nl,
	pt,
	pl,
	sv,
	da,
	nb,
	fi,
	cs,
	sk,
	hu,
	ro,
	tr,
	ru,
	uk,
	el,
	ja,
	zhCN,
	zhTW,
	ko,
	id,
	ar,
	he,
] as StockLanguage[];

/** The meanings that state the product's availability; of two phrases alike in different files, the first here names the state. */
export const STATES = [
	'cta',
	'coming',
	'discontinued',
	'soldout',
	'out',
	'preorder',
	'backorder',
	'limited',
	'in',
	'available',
] as const satisfies readonly Meaning[];

export type State = (typeof STATES)[number];

/** The phrases compiled: one pattern for every stating phrase together, the state of each, and one pattern for each kind of governing word. */
export interface StockPatterns {
	/** Every stating phrase, the longest where two start together ("품절임박" before "품절"). Global: run with `matchAll`, or `search`. */
	states: RegExp;
	/** What each stating phrase says, by its `phraseKey`. */
	stateOf: ReadonlyMap<string, State>;
	/** A negator ending the text before a phrase, with at most three words between. */
	negatedBefore: RegExp;
	/** A negator (or a zero) opening the text after a phrase. */
	negatedAfter: RegExp;
	/** A time word before a phrase, with at most five words between. */
	futureBefore: RegExp;
	/** A time word within two words after a phrase ("Disponível em breve"), or a "from" and a date ("available from 12 May"). */
	futureAfter: RegExp;
	/** A text of time words alone ("Soon", "قريباً"): the product is still to come. */
	timeOnly: RegExp;
	/** A word that makes a sentence about something else. */
	other: RegExp;
}

/**
 * A folded phrase, or a text a phrase matched, as the key of `stateOf`: numbers as `{n}`,
 * spaces and hyphens left out (a phrase's "pre-order" matches "preorder").
 *
 * @example
 * phraseKey('only 3 left') === phraseKey('only {n} left') // true
 */
export const phraseKey = (text: string): string => text.replace(/\d+|\{n\}/g, '#').replace(/[\s\-_]+/g, '');

/**
 * The phrases of every language compiled into a few patterns. Built once by the reader
 * (statement.ts) when first loaded: a page's short texts are hundreds, and each is put to
 * `states` first. One pattern for every state rather than one each: V8 compiles a pattern
 * on its first use, and the cost is its size.
 *
 * @example
 * compileStockPhrases(STOCK_LANGUAGES).states.test('rupture de stock') // true
 */
export function compileStockPhrases(languages: readonly StockLanguage[]): StockPatterns {
	const byMeaning = new Map<Meaning, string[]>(MEANINGS.map((meaning) => [meaning, []]));
	for (const language of languages) for (const phrase of language.phrases) byMeaning.get(phrase.means)!.push(phrase.text);
	const source = (meaning: Meaning): string => alternatives(byMeaning.get(meaning)!, true);
	const stateOf = new Map<string, State>();
	for (const state of STATES) for (const text of byMeaning.get(state)!) if (!stateOf.has(phraseKey(fold(text)))) stateOf.set(phraseKey(fold(text)), state);
	// Words between the governing word and the phrase: "isn't *currently* in stock", "non è *al momento* disponibile".
	const words = (most: number) => `(?:[^\\p{L}\\p{N}]+[\\p{L}\\p{N}'’]+){0,${most}}[^\\p{L}\\p{N}]*`;
	const time = source('time');
	const timeAfter = source('time-after');
	// In scripts without spaces, a few characters between: "暂时没有现货".
	return {
		states: new RegExp(
			alternatives(
				STATES.flatMap((state) => byMeaning.get(state)!),
				true,
			),
			'gu',
		),
		stateOf,
		negatedBefore: new RegExp(`${source('negator')}(?:${words(3)}|.{0,2})$`, 'u'),
		negatedAfter: new RegExp(`^(?:[\\s:：\\-–=]*|.{0,4})${source('negator-after')}`, 'u'),
		futureBefore: new RegExp(`${time}(?:${words(5)}|.{0,3})$`, 'u'),
		futureAfter: new RegExp(`^(?:${words(2)}|.{0,3})(?:${time}|${timeAfter})|^[\\s:：\\-–]*${source('from-date')}[^\\p{N}]{0,12}\\p{N}+`, 'u'),
		timeOnly: new RegExp(`^(?:[^\\p{L}\\p{N}]*(?:${time}|${timeAfter}))+[^\\p{L}\\p{N}]*$`, 'u'),
		other: new RegExp(source('other'), 'u'),
	};
}
