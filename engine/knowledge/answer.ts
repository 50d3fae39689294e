/**
 * What a turn does with the passages found in the bot's files (issue 30 §3):
 * - with an LLM, {@link knowledgePrompt}: the passages, with file name and page, in the per-turn part
 *   of the system prompt, within a budget of {@link PROMPT_BUDGET_TOKENS} (4 characters a token),
 *   and the instruction to answer from them and cite "(carta.pdf, p. 2)";
 * - without one, {@link answerFromPassages}: the best sentence(s) of the best passages (BM25 over
 *   their sentences, each counted with its passage's heading, engine/ranking; a short best sentence
 *   is followed by the next one) with their source, "Según carta.pdf (p. 2): …", only when the
 *   passage holds at least {@link MIN_COVERAGE} of the question's terms; otherwise null and the
 *   offline responder answers as before;
 * - {@link passageUses}: what the test chat's diagnostic panel shows.
 */
import { fill } from '../conversation/texts.ts';
import { bm25, factSentences, terms } from '../ranking/index.ts';
import { termWeight } from '../ranking/terms.ts';
import type { LangCode } from '../schemas.ts';
import { dropLeaders } from './extract.ts';
import type { FoundPassage } from './retrieve.ts';

/** Most tokens of passages in one system prompt (estimated at 4 characters a token). */
export const PROMPT_BUDGET_TOKENS = 1_500;
/** Characters per token in the estimate. */
const CHARS_PER_TOKEN = 4;
/** Share of the question's terms (stems and concepts) a passage must hold to be quoted offline. */
export const MIN_COVERAGE = 0.5;
/** A chosen sentence shorter than this (characters) is followed by the passage's next one. */
const SHORT_SENTENCE = 80;
/** Passages whose sentences compete for the offline answer. */
const OFFLINE_PASSAGES = 3;

/** "(carta.pdf, p. 2)" or "(notas.txt)": how a passage is cited. */
export function citation(p: Pick<FoundPassage, 'fileName' | 'page'>): string {
  return p.page ? `${p.fileName}, p. ${p.page}` : p.fileName;
}

/**
 * The "## From the business's files" section of a turn's system prompt: the passages best first,
 * each under its citation (and heading), as many as fit in {@link PROMPT_BUDGET_TOKENS} (the first
 * one cut when it alone is longer). Empty when there is no passage.
 */
export function knowledgePrompt(
  passages: readonly FoundPassage[],
  budgetTokens = PROMPT_BUDGET_TOKENS,
): string {
  if (passages.length === 0) return '';
  const example = citation(passages[0]!);
  const lines = [
    "## From the business's files",
    `These passages of the business's files may answer the follower. Answer from them when they do, and cite the source after the fact like "(${example})". When they do not cover the question, do not guess: say you will check.`,
  ];
  let left = budgetTokens * CHARS_PER_TOKEN;
  for (const [i, p] of passages.entries()) {
    const head = `[${i + 1}] (${citation(p)})${p.heading ? ` ${p.heading}` : ''}`;
    const body = dropLeaders(p.text).replace(/\s+/g, ' ').trim();
    const size = head.length + body.length + 2;
    if (size > left) {
      if (i === 0) lines.push(head, `${body.slice(0, Math.max(0, left - head.length - 3))}…`);
      break;
    }
    lines.push(head, body);
    left -= size;
  }
  return lines.join('\n');
}

/** "Según carta.pdf (p. 2): {text}" in each language; `{page}` lines are used when the passage has one. */
export const SOURCE_TEXTS: Record<LangCode, { page: string; file: string }> = {
  es: { page: 'Según {file} (p. {page}): {text}', file: 'Según {file}: {text}' },
  en: { page: 'According to {file} (p. {page}): {text}', file: 'According to {file}: {text}' },
  fr: { page: 'D’après {file} (p. {page}) : {text}', file: 'D’après {file} : {text}' },
  de: { page: 'Laut {file} (S. {page}): {text}', file: 'Laut {file}: {text}' },
  it: { page: 'Secondo {file} (p. {page}): {text}', file: 'Secondo {file}: {text}' },
  ru: { page: 'Согласно {file} (с. {page}): {text}', file: 'Согласно {file}: {text}' },
  hi: { page: '{file} (पृ. {page}) के अनुसार: {text}', file: '{file} के अनुसार: {text}' },
};

/** Share of the question's full terms (stems, concept tags) that a text holds, 0..1. */
export function coverage(question: readonly string[], text: readonly string[]): number {
  const wanted = new Set(question.filter((t) => termWeight(t) === 1));
  if (wanted.size === 0) return 0;
  const have = new Set(text);
  let found = 0;
  for (const t of wanted) if (have.has(t)) found++;
  return found / wanted.size;
}

/**
 * The offline answer from the bot's passages (see the module comment), or null when no passage
 * fits the question well enough. At most two sentences, both from the passage of the best one,
 * in the passage's order.
 */
export function answerFromPassages(
  message: string,
  passages: readonly FoundPassage[],
  lang: LangCode,
): string | null {
  return offlineAnswer(message, passages, lang)?.text ?? null;
}

/**
 * {@link answerFromPassages} with the passage its sentences come from (what the diagnostic panel
 * shows and the file the reply can offer to send, engine/knowledge/offer.ts) and the quoted
 * sentences alone (`quote`, without the source), or null.
 */
export function offlineAnswer(
  message: string,
  passages: readonly FoundPassage[],
  lang: LangCode,
): { text: string; quote: string; passage: FoundPassage } | null {
  const query = terms(message, lang);
  if (query.length === 0 || passages.length === 0) return null;
  const pool: Array<{ passage: number; index: number; sentence: string; terms: string[] }> = [];
  for (const [passage, p] of passages.slice(0, OFFLINE_PASSAGES).entries()) {
    if (coverage(query, terms(`${p.heading} ${p.text}`, lang)) < MIN_COVERAGE) continue;
    const heading = terms(p.heading, lang);
    // Leader dots split sentences ("Arroz con pato...... 14,50 €"): passages read before they
    // were dropped at extraction lose them first.
    for (const [index, sentence] of factSentences(dropLeaders(p.text), lang).entries())
      pool.push({ passage, index, sentence, terms: [...terms(sentence, lang), ...heading] });
  }
  if (pool.length === 0) return null;
  const scored = bm25(
    query,
    pool.map((s) => s.terms),
  )
    .filter((r) => r.fullMatches > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index);
  const best = scored[0];
  if (!best) return null;
  const from = pool[best.index]!.passage;
  const chosen = scored
    .filter((r) => pool[r.index]!.passage === from && r.score >= best.score * 0.75)
    .slice(0, 2)
    .map((r) => pool[r.index]!)
    .sort((a, b) => a.index - b.index);
  const first = pool[best.index]!;
  const next = pool[best.index + 1];
  if (chosen.length === 1 && first.sentence.length < SHORT_SENTENCE && next?.passage === from)
    chosen.push(next);
  const p = passages[from]!;
  // Passages read before leader dots were dropped at extraction still have them.
  const text = dropLeaders(chosen.map((s) => s.sentence).join(' '))
    .replace(/ {2,}/g, ' ')
    .trim();
  const t = SOURCE_TEXTS[lang];
  return {
    passage: p,
    quote: text,
    text: p.page
      ? fill(t.page, { file: p.fileName, page: String(p.page), text })
      : fill(t.file, { file: p.fileName, text }),
  };
}

/** A passage as the test chat's diagnostic panel shows it. */
export interface PassageUse {
  fileName: string;
  page: number | null;
  heading: string;
  /** The rank, rounded to 3 decimals. */
  score: number;
}

/** {@link PassageUse} of each passage used in a turn. */
export function passageUses(passages: readonly FoundPassage[]): PassageUse[] {
  return passages.map((p) => ({
    fileName: p.fileName,
    page: p.page,
    heading: p.heading,
    score: Math.round(p.score * 1000) / 1000,
  }));
}
