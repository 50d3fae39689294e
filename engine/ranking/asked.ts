/**
 * What a question asks for and what a text gives, beyond shared words (issue 30 §3): the concepts
 * of ./lexicon.ts (hours, day, place, price, contact, booking) and one more, a count. Used where a
 * candidate answer is already chosen by its words and the question's kind decides between them:
 * the files' passages re-sorted by what the question asks (engine/knowledge/retrieve.ts), and the
 * offline responder's choice between the description's answer and the files' (engine/conversation/
 * offline.ts). The description's own ranking keeps the concept tags alone (./terms.ts `terms`):
 * a number is in too many sentences to be a tag ("mesa para dos" is not a count asked).
 *
 * - A count is asked by the question's words ("¿cuántos…?", "how many", "how long", "wie viele"…;
 *   in French, Russian and Hindi the price's words ask it too: "combien", "сколько", "कितने").
 * - A text gives a count with a number in figures (not a price, a time, a percentage, a year or a
 *   phone number: those have their own concept or none) or in words from two to twelve, leaving
 *   out those that are also common words ("sei", "neuf", "दो").
 */
import type { LangCode } from '../schemas.ts';
import type { Concept } from './lexicon.ts';
import { conceptsOf } from './terms.ts';

/** A concept of ./lexicon.ts or a count. */
export type Asked = Concept | 'quantity';

/** A word of the language, not inside another (Unicode letters, unlike `\b`). */
const word = (alternatives: string) => new RegExp(`(?<![\\p{L}])(?:${alternatives})(?![\\p{L}])`, 'iu');

/** The words that ask for a count, per language. */
const HOW_MANY: Record<LangCode, RegExp> = {
  es: word('cuánt[oa]s|cuant[oa]s|cuánto tiempo|cuanto tiempo|cuánto dura|cuanto dura'),
  en: word('how many|how long|how much time'),
  fr: word('combien'),
  de: word('wie viele|wie lange|wie viel'),
  it: word('quanti|quante|quanto tempo|quanto dura'),
  ru: word('сколько'),
  hi: word('कितने|कितनी|कितना'),
};

/** Numbers from two to twelve in words, per language, without those that are common words too. */
const NUMBER_WORDS: Record<LangCode, RegExp> = {
  es: word('dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|docenas?'),
  en: word('two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozens?'),
  fr: word('deux|trois|quatre|cinq|sept|huit|dix|onze|douze|douzaines?'),
  de: word('zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|dutzend'),
  it: word('due|tre|quattro|cinque|sette|otto|nove|dieci|undici|dodici|dozzin[ae]'),
  ru: word('два|две|три|четыре|пять|шесть|семь|восемь|девять|десять'),
  hi: word('तीन|चार|पांच|पाँच|छह|सात|आठ|नौ|दस'),
};

/**
 * A number in figures that may be a count: not after a currency sign, digit or separator, not
 * followed by a separator and digit, a currency, a percent sign, an ordinal mark or a time marker,
 * and not a group of a phone number (`600 123 456`).
 */
const FIGURE =
  /(?<![\d.,:/€$£₹₽#+]|\d\s)\d+(?:[.,]\d{3})*(?![\d:/%ºª°€$£₹₽]|[.,]\d|\s\d{2,}|\s?(?:€|\$|£|₹|₽|%|eur\b|euros?\b|usd\b|h\b|h\d|hrs?\b|am\b|pm\b|a\.\s?m|p\.\s?m|uhr\b))/giu;

/** True when a number in figures is a year (1900–2099), not a count. */
const isYear = (n: string) => /^(?:19|20)\d\d$/.test(n);

/** True when the text gives a count (see the module comment). */
export function givesCount(text: string, lang: LangCode): boolean {
  if (NUMBER_WORDS[lang].test(text)) return true;
  for (const m of text.matchAll(FIGURE)) if (!isYear(m[0])) return true;
  return false;
}

/** What the question asks for: its concepts, and a count when its words ask for one. */
export function askedOf(question: string, lang: LangCode): Asked[] {
  const asked: Asked[] = conceptsOf(question, lang);
  if (HOW_MANY[lang].test(question)) asked.push('quantity');
  return asked;
}

/** What a text gives: its concepts, and a count when it states one. */
export function givenOf(text: string, lang: LangCode): Asked[] {
  const given: Asked[] = conceptsOf(text, lang);
  if (givesCount(text, lang)) given.push('quantity');
  return given;
}

/**
 * True when `given` answers one of `asked`. An hour and a day answer each other ("¿Cuándo
 * abrís?" is answered by "de martes a domingo" as well as by "de 13:00 a 16:30").
 */
export function answersAsked(asked: readonly Asked[], given: readonly Asked[]): boolean {
  const has = new Set(given);
  if (has.has('hours') || has.has('day')) has.add('hours').add('day');
  return asked.some((c) => has.has(c));
}
