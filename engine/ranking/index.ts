/**
 * What a bot can say from its own texts without an LLM (issue 10 §6, §7): the sentences of its
 * business description most relevant to a follower's question (BM25 over sentences, engine/ranking/
 * bm25.ts, with the terms of terms.ts in the bot's language), the files whose context text fits
 * the question, and a short public summary of the business for the IALanding. Sentences that tell
 * the bot how to behave ("Atiende con cercanía…") are never quoted: they are for the LLM.
 */
import type { LangCode } from '../schemas.ts';
import { bm25 } from './bm25.ts';
import { INSTRUCTION_ADVERBS, INSTRUCTION_CLOSERS, INSTRUCTION_OPENERS } from './instructions.ts';
import { segmenter, terms, type Word, type WordList, wordList, words } from './terms.ts';

export { type Asked, answersAsked, askedOf, givenOf } from './asked.ts';
export { bm25 } from './bm25.ts';
export { conceptsOf, terms } from './terms.ts';

/** The sentences of a text, trimmed, in order (line breaks end a sentence too). */
export function sentences(text: string, lang: LangCode): string[] {
  const bySentence = segmenter(lang, 'sentence');
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    for (const s of bySentence.segment(line)) {
      const clean = s.segment.replace(/\s+/g, ' ').trim();
      if (/[\p{L}\p{N}]/u.test(clean)) out.push(clean);
    }
  }
  return out;
}

const instructionLists = new Map<LangCode, { openers: WordList; adverbs: WordList; closers: WordList }>();

function instructionList(lang: LangCode) {
  let lists = instructionLists.get(lang);
  if (!lists) {
    lists = {
      openers: wordList(INSTRUCTION_OPENERS[lang]),
      adverbs: wordList(INSTRUCTION_ADVERBS[lang]),
      closers: wordList(INSTRUCTION_CLOSERS[lang]),
    };
    instructionLists.set(lang, lists);
  }
  return lists;
}

const pair = (a: Word, b: Word | undefined): Word =>
  b ? { lower: `${a.lower} ${b.lower}`, folded: `${a.folded} ${b.folded}` } : a;

/**
 * True when a sentence tells the bot how to behave rather than saying something about the
 * business: it opens with one of the language's instruction verbs (after an optional "siempre",
 * "always"…), or, in Hindi, ends with a polite command (lexicon.ts).
 */
export function isInstruction(sentence: string, lang: LangCode): boolean {
  const lists = instructionList(lang);
  let ws = words(sentence, lang);
  if (ws.length > 1 && lists.adverbs.has(ws[0]!)) ws = ws.slice(1);
  const first = ws[0];
  if (!first) return false;
  if (lists.openers.has(first) || lists.openers.has(pair(first, ws[1]))) return true;
  const last = ws.at(-1);
  return Boolean(last && lists.closers.has(last));
}

/** The sentences of a description that are about the business (instructions left out). */
export function factSentences(description: string, lang: LangCode): string[] {
  return sentences(description, lang).filter((s) => !isInstruction(s, lang));
}

/**
 * A short public text about the business: the first sentences of its description that are not
 * instructions, up to `maxChars` (at least one sentence, cut at a word with "…" when that one is
 * longer). Empty when the description has no such sentence.
 */
export function publicSummary(description: string, lang: LangCode, maxChars = 280): string {
  let out = '';
  for (const s of factSentences(description, lang)) {
    const next = out ? `${out} ${s}` : s;
    if (next.length > maxChars) {
      if (out) break;
      return `${s
        .slice(0, maxChars)
        .replace(/\s+\S*$/, '')
        .replace(/[\s,.;:]+$/, '')}…`;
    }
    out = next;
  }
  return out;
}

/**
 * What a bot's public pages say about the business (issue 10 §7): the owner's public description
 * when set, else {@link publicSummary} of the business description (instructions left out).
 */
export function publicDescription(
  bot: { public_description: string; business_description: string },
  lang: LangCode,
): string {
  return bot.public_description.trim() || publicSummary(bot.business_description, lang);
}

/** Options of {@link relevantSentences}. */
export interface SentenceOptions {
  /** Most sentences returned. */
  max?: number;
  /** A sentence after the best is kept when its score is at least this share of the best's. */
  ratio?: number;
  /** The question's language when it is not the description's (issue 29: a follower's language). */
  questionLang?: LangCode;
}

/**
 * The sentences of a description that answer a question, best first by BM25 and returned in the
 * description's order; empty when none shares a stem or a concept with the question (a match
 * on prefix terms alone is not enough). Instructions are never returned.
 */
export function relevantSentences(
  question: string,
  description: string,
  lang: LangCode,
  options: SentenceOptions = {},
): string[] {
  const { max = 2, ratio = 0.75 } = options;
  const candidates = factSentences(description, lang);
  const query = terms(question, options.questionLang ?? lang);
  if (candidates.length === 0 || query.length === 0) return [];
  const scored = bm25(
    query,
    candidates.map((s) => terms(s, lang)),
  )
    .filter((r) => r.fullMatches > 0 && r.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index);
  const best = scored[0];
  if (!best) return [];
  return scored
    .filter((r) => r.score >= best.score * ratio)
    .slice(0, max)
    .sort((a, b) => a.index - b.index)
    .map((r) => candidates[r.index]!);
}

/** The fields of a file ranking reads. */
export interface RankableFile {
  file_name: string;
  keyword: string;
  context: string;
}

/**
 * The files whose context text (with their keywords and name, which are never shown) fits a
 * question, best first; empty when none shares a stem or a concept with it. `questionLang` is the
 * question's language when it is not the bot's (issue 29).
 */
export function relevantFiles<F extends RankableFile>(
  question: string,
  files: readonly F[],
  lang: LangCode,
  questionLang: LangCode = lang,
): F[] {
  const query = terms(question, questionLang);
  if (files.length === 0 || query.length === 0) return [];
  const docs = files.map((f) =>
    terms([f.context, f.keyword.replace(/,/g, ' '), fileLabel(f.file_name)].join('\n'), lang),
  );
  return bm25(query, docs)
    .filter((r) => r.fullMatches > 0 && r.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((r) => files[r.index]!);
}

/** A file name as words: upload timestamp and extension dropped, `-` and `_` as spaces. */
export function fileLabel(fileName: string): string {
  return fileName
    .replace(/^\d{10,}_/, '')
    .replace(/\.[a-z0-9]{2,5}$/i, '')
    .replace(/[-_]+/g, ' ')
    .trim();
}

/**
 * How a file is named to followers and visitors: the first sentence of its context text (at most
 * `maxChars`, cut at a word), or its name as words when it has no context. Never its keywords.
 */
export function fileDescription(
  file: { file_name: string; context: string },
  lang: LangCode,
  maxChars = 140,
): string {
  const first = sentences(file.context, lang)[0] ?? '';
  const text = first || fileLabel(file.file_name);
  if (text.length <= maxChars) return text;
  return `${text
    .slice(0, maxChars)
    .replace(/\s+\S*$/, '')
    .replace(/[\s,.;:]+$/, '')}…`;
}
