/**
 * Text to ranking terms, in a bot's language (issue 10 §6):
 *  1. words by the language's word boundaries (`Intl.Segmenter`, so Hindi and Russian split right);
 *  2. concept tags (`#hours`, `#day`, …) for words and patterns of engine/ranking/lexicon.ts;
 *  3. stop words dropped (`@orama/stopwords`, per language, accent-folded);
 *  4. the rest stemmed (`@orama/stemmers`, Snowball, per language), then accent-folded with
 *     engine/matching's `foldAccents` ("sábado" and "sabado" give the same term);
 *  5. a weaker prefix term (`~` and the word's first 4 folded letters) that lets two forms of one
 *     verb meet when their stems differ ("abrís" → `abris`, "abrimos" → `abrim`, both `~abri`).
 * Devanagari keeps its vowel signs: they are combining marks, and folding them would merge words.
 */

import { stemmer as stemEn } from '@orama/stemmers/english';
import { stemmer as stemFr } from '@orama/stemmers/french';
import { stemmer as stemDe } from '@orama/stemmers/german';
import { stemmer as stemHi } from '@orama/stemmers/indian';
import { stemmer as stemIt } from '@orama/stemmers/italian';
import { stemmer as stemRu } from '@orama/stemmers/russian';
import { stemmer as stemEs } from '@orama/stemmers/spanish';
import { stopwords as stopEn } from '@orama/stopwords/english';
import { stopwords as stopFr } from '@orama/stopwords/french';
import { stopwords as stopDe } from '@orama/stopwords/german';
import { stopwords as stopHi } from '@orama/stopwords/indian';
import { stopwords as stopIt } from '@orama/stopwords/italian';
import { stopwords as stopRu } from '@orama/stopwords/russian';
import { stopwords as stopEs } from '@orama/stopwords/spanish';
import { foldAccents } from '../matching/index.ts';
import type { LangCode } from '../schemas.ts';
import { CONCEPT_PATTERNS, CONCEPT_WORDS, CONCEPTS, type Concept, SMALL_TALK } from './lexicon.ts';

/** A word as written (lowercase) and accent-folded. */
export interface Word {
  lower: string;
  folded: string;
}

/** The weight of a prefix term (`~…`) against a full term or a concept tag (1). */
export const PREFIX_WEIGHT = 0.4;
/** Letters of a prefix term. */
const PREFIX_LENGTH = 4;

const STEMMERS: Record<LangCode, (word: string) => string> = {
  es: stemEs,
  en: stemEn,
  fr: stemFr,
  de: stemDe,
  it: stemIt,
  ru: stemRu,
  hi: stemHi,
};

const STOPWORD_LISTS: Record<LangCode, readonly string[]> = {
  es: stopEs,
  en: stopEn,
  fr: stopFr,
  de: stopDe,
  it: stopIt,
  ru: stopRu,
  hi: stopHi,
};

const DEVANAGARI = /\p{Script=Devanagari}/u;

/** Lowercase and accents removed, except in Devanagari (see the module note). */
export function fold(word: string): string {
  return DEVANAGARI.test(word) ? word.toLowerCase() : foldAccents(word);
}

const segmenters = new Map<string, Intl.Segmenter>();

/** The language's segmenter into words or sentences, made once and kept. */
export function segmenter(lang: LangCode, granularity: 'word' | 'sentence'): Intl.Segmenter {
  const key = `${granularity}:${lang}`;
  let made = segmenters.get(key);
  if (!made) {
    made = new Intl.Segmenter(lang, { granularity });
    segmenters.set(key, made);
  }
  return made;
}

/** The words of a text (letters or digits), lowercase and folded, in order. */
export function words(text: string, lang: LangCode): Word[] {
  const out: Word[] = [];
  for (const s of segmenter(lang, 'word').segment(text)) {
    if (!s.isWordLike) continue;
    const lower = s.segment.toLocaleLowerCase(lang);
    out.push({ lower, folded: fold(lower) });
  }
  return out;
}

/** A compiled word list of the lexicon (see lexicon.ts for the entry syntax). */
export interface WordList {
  /** True when the word matches an entry. */
  has(word: Word): boolean;
}

const HAS_MARK = /[^\p{ASCII}]/u;

/** Compiles a lexicon list: entries with diacritics compare with the word as written. */
export function wordList(entries: readonly string[]): WordList {
  const exactRaw = new Set<string>();
  const exactFolded = new Set<string>();
  const prefixes: Array<[string, boolean]> = [];
  for (const e of entries) {
    const prefix = e.endsWith('*');
    const text = (prefix ? e.slice(0, -1) : e).toLowerCase();
    const raw = HAS_MARK.test(text) && fold(text) !== text;
    if (prefix) prefixes.push([text, raw]);
    else (raw ? exactRaw : exactFolded).add(text);
  }
  return {
    has: (w) =>
      exactFolded.has(w.folded) ||
      exactRaw.has(w.lower) ||
      prefixes.some(([p, raw]) => (raw ? w.lower : w.folded).startsWith(p)),
  };
}

const conceptLists = new Map<LangCode, Array<[Concept, WordList]>>();
const smallTalkLists = new Map<LangCode, { words: WordList; leads: WordList }>();

function smallTalk(lang: LangCode) {
  let lists = smallTalkLists.get(lang);
  if (!lists) {
    lists = { words: wordList(SMALL_TALK[lang].words), leads: wordList(SMALL_TALK[lang].leads) };
    smallTalkLists.set(lang, lists);
  }
  return lists;
}
const stopwordSets = new Map<LangCode, ReadonlySet<string>>();

function concepts(lang: LangCode): Array<[Concept, WordList]> {
  let lists = conceptLists.get(lang);
  if (!lists) {
    lists = CONCEPTS.map((c) => [c, wordList(CONCEPT_WORDS[lang][c])]);
    conceptLists.set(lang, lists);
  }
  return lists;
}

/** The language's stop words, folded. */
export function stopwords(lang: LangCode): ReadonlySet<string> {
  let set = stopwordSets.get(lang);
  if (!set) {
    set = new Set(STOPWORD_LISTS[lang].map(fold));
    stopwordSets.set(lang, set);
  }
  return set;
}

/** The concepts a text speaks of: by its words and by pattern (times, prices, phones, e-mails). */
export function conceptsOf(text: string, lang: LangCode, ws: readonly Word[] = words(text, lang)): Concept[] {
  const found = new Set<Concept>();
  for (const [concept, pattern] of CONCEPT_PATTERNS) if (pattern.test(text)) found.add(concept);
  for (const w of ws) for (const [concept, list] of concepts(lang)) if (list.has(w)) found.add(concept);
  return [...found];
}

/**
 * The ranking terms of a text: concept tags (`#hours`), stems (`sab`) and prefix terms (`~saba`),
 * with repeats (a term's count in a sentence is its frequency). Stop words and greetings give no
 * stem, but a stop word may carry a concept ("¿Cuándo…?" → `#hours`).
 */
export function terms(text: string, lang: LangCode): string[] {
  const ws = words(text, lang);
  const out = conceptsOf(text, lang, ws).map((c) => `#${c}`);
  const stop = stopwords(lang);
  const stem = STEMMERS[lang];
  const chat = smallTalk(lang);
  let afterLead = false;
  for (const w of ws) {
    const skip = afterLead || chat.words.has(w) || chat.leads.has(w);
    afterLead = chat.leads.has(w);
    if (skip || stop.has(w.folded) || (w.folded.length < 2 && !/\d/.test(w.folded))) continue;
    out.push(fold(stem(w.lower)));
    if (w.folded.length >= PREFIX_LENGTH && !/^\d+$/.test(w.folded))
      out.push(`~${w.folded.slice(0, PREFIX_LENGTH)}`);
  }
  return out;
}

/** A term's weight in a query: prefix terms count less than stems and concept tags. */
export function termWeight(term: string): number {
  return term.startsWith('~') ? PREFIX_WEIGHT : 1;
}
