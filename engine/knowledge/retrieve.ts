/**
 * The passages of a bot's files that fit a follower's message (issue 30 §2, §3): PostgreSQL
 * full-text search over `chatbot_file_passages` (migrations/202611291200_file_passages.ts), the
 * same SQL on PGlite and PostgreSQL.
 *
 * - The message's terms (./terms.ts) are its lexemes as `to_tsvector` makes them with the configuration the
 *   passages were indexed with (`spanish`, `simple`…, read from the bot's passages, so query and
 *   vectors always agree), word by word through a process-wide cache (a stem depends only on the
 *   word and the configuration), each weighted by its IDF among the bot's passages: a small bot's
 *   whole vocabulary is read with its index (`ts_stat`), a large bot's frequencies are counted with
 *   the index (exactly, up to {@link MAX_DF} rows a term); both are kept while the bot's passages do
 *   not change. Warm, a turn runs one statement: the search.
 * - Candidates: when the terms' rows are few, every passage holding any of them, those holding two
 *   of the message's terms first; else first the passages holding two (`(a & b) | (a & c) | …`,
 *   few rows even at 10,000 passages) and those holding any only when fewer than k: a question
 *   rarely shares every word with its answer. The bot and the terms are one GIN index
 *   (migrations/202611301010_passages_bot_gin.ts), so the planner never scans a bot's passages.
 * - Rank: BM25 with each term counted once (the weights of the terms a passage holds, normalised by
 *   its stored length), then, for the best {@link RESORT_DEPTH}, the phrases they hold ({@link
 *   PHRASE_WEIGHT} of a pair's weight for each pair of neighbouring message terms held at the same
 *   distance, `'monthli' <-> 'plan'`) and `ts_rank_cd` as a tie-break. When the terms' rows are
 *   many (common words at a large bot), only the best {@link PREFILTER_DEPTH} by `ts_rank` are
 *   scored.
 * - The recent history's terms are a lighter second query (weighted by {@link HISTORY_WEIGHT}), so
 *   a follow-up such as "¿y sin gluten?" still finds the dish talked about.
 * - A bot without passages costs no query per turn (./find.ts: what a turn of a loaded bot asks).
 * Nothing is cached that another node would need: the index's frequencies only save queries, and
 *   are read again when the bot's passages change (./terms.ts `passagesIndex`).
 */
import { type Kysely, sql } from 'kysely';
import type { Logger } from '../logger.ts';
import { type Asked, askedOf, givenOf } from '../ranking/index.ts';
import type { HistoryItem, LangCode } from '../schemas.ts';
import type { Database } from '../store/database.ts';
import type { Embedder } from './embeddings.ts';
import { langOfConfig } from './index.ts';
import {
  COMMON_DF,
  HISTORY_WEIGHT,
  MAX_DF,
  type PassagesIndex,
  type Phrase,
  passagesIndex,
  quote,
  type Term,
  weightedTerms,
} from './terms.ts';
import { fuseWithVectors, HYBRID_DEPTH } from './vectors.ts';

export { HISTORY_WEIGHT, type PassagesIndex, passagesIndex };

/** A passage found for a message: where it comes from and how well it fits. */
export interface FoundPassage {
  /** `chatbot_file_passages.id`. */
  id: string;
  fileId: string;
  fileName: string;
  /** 1-based page, or null for a file without pages. */
  page: number | null;
  heading: string;
  text: string;
  /** Full-text rank (ts_rank_cd, length-normalised, plus the history's lighter rank); higher is better. */
  score: number;
}

/** What {@link retrievePassages} searches for. */
export interface RetrieveQuery {
  chatbotId: string;
  /** The follower's message. */
  message: string;
  /** Recent history (the last {@link HISTORY_MESSAGES} follower messages are used). */
  history?: readonly HistoryItem[];
  /** Most passages returned (default {@link DEFAULT_K}). */
  k?: number;
  /** The bot's passages' configuration and count ({@link passagesIndex}); read when omitted. */
  index?: PassagesIndex;
  /** The embeddings server, when configured: the ranking is hybrid (issue 30 §2). */
  embedder?: Embedder | null;
  /** Whether the bot has embeddings of the embedder's model; asked when omitted. */
  embedded?: boolean;
  /** Where a failed message embedding is logged. */
  log?: Pick<Logger, 'warn'>;
  /** The follower's language when told (issue 29): what the question asks is read in it too. */
  questionLang?: LangCode;
}

/**
 * Most passages the one-statement search may read: when the terms' frequencies add up to more, the
 * passages holding two of the message's terms are searched first (a GIN AND, few rows), and all
 * holding any only when they are fewer than asked for.
 */
const ONE_PASS_ROWS = 400;
/**
 * Above this many term occurrences among the bot's passages (the sum of the terms' document
 * frequencies), a search scores only the best {@link PREFILTER_DEPTH} candidates by `ts_rank`.
 */
const PREFILTER_READS = 2_000;
/** Candidates a prefiltered search scores. */
const PREFILTER_DEPTH = 250;
/** Share of the terms' mean weight a passage gains for each concept of the message it speaks of. */
export const CONCEPT_WEIGHT = 0.5;

/** Candidates, best by BM25, that the phrases and the tie-break re-sort (see {@link search}). */
const RESORT_DEPTH = 30;
/** Passages returned by default. */
export const DEFAULT_K = 4;
/** Follower messages of the history that make the second query. */
export const HISTORY_MESSAGES = 2;
/** Longest text of either query, in characters (a pasted essay must not make a huge tsquery). */
const MAX_QUERY_CHARS = 500;

/** Passages holding at least two of the terms: `('a' & 'b') | ('a' & 'c') | …`. */
function pairsOf(terms: readonly string[]): string {
  const pairs: string[] = [];
  for (let i = 0; i < terms.length; i++)
    for (let j = i + 1; j < terms.length; j++) pairs.push(`(${quote(terms[i]!)} & ${quote(terms[j]!)})`);
  return pairs.join(' | ');
}

/** Passages holding at least three of the terms: `('a' & 'b' & 'c') | …`. */
function triplesOf(terms: readonly string[]): string {
  const out: string[] = [];
  for (let i = 0; i < terms.length; i++)
    for (let j = i + 1; j < terms.length; j++)
      for (let k = j + 1; k < terms.length; k++)
        out.push(`(${quote(terms[i]!)} & ${quote(terms[j]!)} & ${quote(terms[k]!)})`);
  return out.join(' | ');
}

/** One row of {@link search}. */
interface Row {
  id: string | number;
  file_id: string;
  file_name: string;
  file_type: string;
  page: number | null;
  heading: string;
  text: string;
  score: number;
  /** Whether it holds two of the message's terms (searches with `paired` only). */
  tier?: boolean;
}

/** What {@link search} ranks. */
interface SearchQuery {
  /** The terms (the message's and the history's), weighted. */
  terms: readonly Term[];
  phrases: readonly Phrase[];
  /** The candidates: a tsquery text of lexemes. */
  filter: string;
  /** The bot's passages' average length, characters. */
  avgChars: number;
  /** The message's terms: passages holding two of them come first. */
  paired?: readonly string[];
  /** Many candidates: only the best {@link PREFILTER_DEPTH} by `ts_rank` are scored. */
  prefilter?: boolean;
  /** What the message asks for (engine/ranking `askedOf`): the best are re-sorted by it. */
  concepts?: readonly Asked[];
  /** The bot's language, with `concepts`. */
  lang?: LangCode;
}

/**
 * The passages of a bot matching `filter` (a tsquery text of lexemes), best first, in two stages:
 * 1. every candidate by BM25 with each term counted once: the sum of the weights of the terms it
 *    holds times its length norm `2.2 / (1 + 1.2 · (0.25 + 0.75 · chars / avgChars))` (k1 = 1.2,
 *    b = 0.75; `chars` is a stored column, so the text is not read), the best {@link RESORT_DEPTH};
 * 2. those re-sorted with the phrases they hold added to the sum, and `ts_rank_cd` of the terms
 *    (cover density, a tenth) as a tie-break. Both cost several times more per row than a term,
 *    and only change the order near the top.
 * With `paired` (the message's terms), passages holding two of them come first in both. With
 * `prefilter`, the candidates are first cut to the {@link PREFILTER_DEPTH} best by `ts_rank` of
 * the terms (one call a row: how many of them a passage holds, and how often), as scoring every
 * one of thousands costs a term test per term per row.
 */
async function search(db: Kysely<Database>, chatbotId: string, k: number, q: SearchQuery): Promise<Row[]> {
  const { terms, phrases, filter, avgChars, paired = [], prefilter = false } = q;
  const sum = (parts: ReadonlyArray<{ query: string; weight: number }>) =>
    sql.join(
      parts.map((t) => sql`${t.weight}::float8 * (p.tsv @@ ${t.query}::tsquery)::int`),
      sql` + `,
    );
  const held = sum(terms.map((t) => ({ query: quote(t.lexeme), weight: t.weight })));
  const anyTerm = terms.map((t) => quote(t.lexeme)).join(' | ');
  const tier =
    paired.length > 1
      ? sql`(${sql.join(
          paired.map((l) => sql`(p.tsv @@ ${quote(l)}::tsquery)::int`),
          sql` + `,
        )}) >= 2`
      : null;
  const { rows } = await sql<Row>`
    SELECT p.id, p.file_id, f.file_name, f.file_type, p.page, p.heading, p.text, ${tier ? sql`p.tier,` : sql``}
      (p.bm25 + ${phrases.length ? sql`(${sum(phrases)}) * p.norm +` : sql``}
        0.1 * ts_rank_cd(p.tsv, ${anyTerm}::tsquery, 1))::float8 AS score
    FROM (
      SELECT p.id, p.file_id, p.page, p.heading, p.text, p.tsv, p.norm, ${tier ? sql`p.tier,` : sql``}
        ((${held}) * p.norm)::float8 AS bm25
      FROM (
        SELECT p.*, ${tier ? sql`${tier} AS tier,` : sql``}
          (2.2 / (1 + 1.2 * (0.25 + 0.75 * p.chars / ${avgChars}::float8)))::float8 AS norm
        FROM chatbot_file_passages p
        WHERE p.chatbot_id = ${chatbotId} AND p.tsv @@ ${filter}::tsquery
        ${prefilter ? sql`ORDER BY ts_rank(p.tsv, ${anyTerm}::tsquery) DESC, p.id LIMIT ${PREFILTER_DEPTH}` : sql``}
      ) p
      ORDER BY ${tier ? sql`p.tier DESC,` : sql``} bm25 DESC, p.id
      LIMIT ${Math.max(k, RESORT_DEPTH)}
    ) p JOIN chatbot_files f ON f.id = p.file_id
    ORDER BY ${tier ? sql`p.tier DESC,` : sql``} score DESC, p.id
    LIMIT ${q.concepts?.length ? Math.max(k, RESORT_DEPTH) : k}`.execute(db);
  return q.concepts?.length ? byConcepts(rows, q.concepts, q.lang!, terms, k) : rows;
}

/**
 * The rows re-sorted with {@link CONCEPT_WEIGHT} of the terms' mean weight added for each thing
 * the message asks for that a passage gives (engine/ranking/asked.ts: hours, day, place, price,
 * contact, booking, a count): "¿cuánto cuesta el plan mensual?" asks a `price`, and "Plan mensual:
 * 19,99 € al mes" gives one, though it shares no other word with the question than the plan's;
 * "¿cuántos alérgenos principales hay?" asks a count, "Nueve alimentos…" gives one. The first `k`.
 */
function byConcepts(
  rows: Row[],
  concepts: readonly Asked[],
  lang: LangCode,
  terms: readonly Term[],
  k: number,
): Row[] {
  const mean = terms.reduce((n, t) => n + t.weight, 0) / Math.max(1, terms.length);
  return rows
    .map((r) => {
      const held = givenOf(r.text, lang).filter((c) => concepts.includes(c)).length;
      return { ...r, score: Number(r.score) + CONCEPT_WEIGHT * mean * held };
    })
    .sort((a, b) => Number(b.tier ?? 0) - Number(a.tier ?? 0) || b.score - a.score)
    .slice(0, k);
}

/** The history's follower messages that make the lighter second query. */
export function historyQuery(history: readonly HistoryItem[] = []): string {
  return history
    .filter((h) => h.role === 'user')
    .slice(-HISTORY_MESSAGES)
    .map((h) => h.content)
    .join(' ')
    .slice(-MAX_QUERY_CHARS);
}

/**
 * The top passages of a bot's files for a message, best first; empty when the bot has no
 * passages or the message has no searchable word.
 */
export async function retrievePassages(db: Kysely<Database>, query: RetrieveQuery): Promise<FoundPassage[]> {
  const message = query.message.slice(0, MAX_QUERY_CHARS);
  if (!/[\p{L}\p{N}]/u.test(message)) return [];
  const index = query.index ?? (await passagesIndex(db, query.chatbotId));
  if (!index) return [];
  const k = Math.max(1, Math.min(query.k ?? DEFAULT_K, 20));
  // Hybrid: a deeper text list to fuse with the vector one (./vectors.ts).
  const depth = query.embedder ? Math.max(k, HYBRID_DEPTH) : k;
  const { terms, past, phrases } = await weightedTerms(
    db,
    query.chatbotId,
    index,
    message,
    historyQuery(query.history),
  );
  if (terms.length === 0 && !query.embedder) return [];
  const all = [...terms, ...past];
  const lexemes = terms.map((t) => t.lexeme);
  const anyOf = all.map((t) => quote(t.lexeme)).join(' | ');
  const reads = all.reduce((n, t) => n + (index.df.get(t.lexeme) ?? MAX_DF), 0);
  const lang = langOfConfig(index.config);
  const concepts = lang
    ? [
        ...new Set([
          ...askedOf(message, lang),
          ...(query.questionLang ? askedOf(message, query.questionLang) : []),
        ]),
      ]
    : [];
  const ranked = {
    terms: all,
    phrases,
    avgChars: index.avgChars,
    prefilter: reads > PREFILTER_READS,
    ...(lang && concepts.length ? { concepts, lang } : {}),
  };
  let rows: Row[] = [];
  if (terms.length > 0 && (terms.length === 1 || reads <= ONE_PASS_ROWS))
    // Few rows hold any term: one statement, those holding two of the message's terms first.
    rows = await search(db, query.chatbotId, depth, { ...ranked, filter: anyOf, paired: lexemes });
  else if (terms.length > 1) {
    // Every message term common (each in COMMON_DF passages or more, weighing little and alike): pairs
    // would be thousands of candidates, so the passages holding three come first (classic
    // coordination order, which BM25 gives anyway when the weights are this close).
    const common = terms.length > 2 && terms.every((t) => (index.df.get(t.lexeme) ?? MAX_DF) >= COMMON_DF);
    const filters = [...(common ? [triplesOf(lexemes)] : []), pairsOf(lexemes), anyOf];
    for (const filter of filters) {
      if (rows.length >= depth) break;
      const seen = new Set(rows.map((r) => String(r.id)));
      const more = await search(db, query.chatbotId, depth, { ...ranked, filter });
      rows.push(...more.filter((r) => !seen.has(String(r.id))).slice(0, depth - rows.length));
    }
  }
  const found = rows.map(foundOf);
  if (!query.embedder) return found;
  const { embedder, embedded, log } = query;
  const hybrid = { chatbotId: query.chatbotId, embedder, message, k, ...(log ? { log } : {}) };
  return fuseWithVectors(db, { ...hybrid, ...(embedded !== undefined ? { embedded } : {}) }, found, (ids) =>
    passagesOf(db, ids),
  );
}

/**
 * A row of the search as a {@link FoundPassage}. Only a PDF has pages to cite: a document or a
 * transcript is read as one page, cited by its name alone ("Según alergenos.md: …").
 */
const foundOf = (r: Row): FoundPassage => ({
  id: String(r.id),
  fileId: r.file_id,
  fileName: r.file_name,
  page: r.file_type === 'pdf' ? r.page : null,
  heading: r.heading,
  text: r.text,
  score: Number(r.score),
});

/** The passages of `ids` (the vector hits the text search did not find), unscored. */
async function passagesOf(db: Kysely<Database>, ids: string[]): Promise<FoundPassage[]> {
  const rows = await db
    .selectFrom('chatbot_file_passages as p')
    .innerJoin('chatbot_files as f', 'f.id', 'p.file_id')
    .select([
      'p.id',
      'p.file_id',
      'f.file_name',
      'f.file_type',
      'p.page',
      'p.heading',
      'p.text',
      sql<number>`0`.as('score'),
    ])
    .where('p.id', 'in', ids)
    .execute();
  return rows.map(foundOf);
}
