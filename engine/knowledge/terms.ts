/**
 * The terms of a follower's message for the search of a bot's passages (./retrieve.ts): its
 * lexemes as `to_tsvector` makes them with the configuration the passages were indexed with,
 * word by word through a process-wide cache (a stem depends only on the word and the
 * configuration), each weighted by its inverse document frequency among the bot's passages, read
 * from the bot's {@link PassagesIndex} (a small bot's whole vocabulary, a large bot's lexemes as
 * they are asked); the phrases the message's neighbouring terms make; the history's terms.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../store/database.ts';

/** Share of the history's rank in a passage's score. */
export const HISTORY_WEIGHT = 0.3;
/** Most distinct terms of either query. */
const MAX_TERMS = 8;
/**
 * Most passages counted for a term's document frequency: counting reads the rows it finds (about
 * 3 ms for 10,000 on PostgreSQL), so a bot larger than this sees its commonest terms as equally
 * common. Below it the frequency is exact: a term in 300 passages and one in 9,000 of 10,000 weigh
 * 3.5 and 0.1, and a nearly-everywhere word no longer ranks with the rare one.
 */
export const MAX_DF = 50_000;
/**
 * A term in at least this many passages is common: when every term of a message is, the
 * passages holding three of them are searched first (./retrieve.ts).
 */
export const COMMON_DF = 300;
/** A `text[]` as the driver returns it (an array, or `{a,b}` text on PGlite's older paths). */
const textArray = (v: string[] | string | null): string[] =>
  Array.isArray(v) ? v : v ? v.replace(/[{}"]/g, '').split(',').filter(Boolean) : [];

/** A lexeme as a tsquery operand (`'it''s'`). */
export const quote = (lexeme: string) => `'${lexeme.replace(/'/g, "''")}'`;

/** A query term with its weight (its IDF among the bot's passages; less for the history's). */
export interface Term {
  lexeme: string;
  weight: number;
}

/** Share of a phrase's terms' mean weight added when a passage holds them as the message has them. */
export const PHRASE_WEIGHT = 0.5;
/** Farthest apart (positions, stop words counted) two of the message's terms make a phrase. */
const PHRASE_SPAN = 3;

/** Two of the message's terms at a given distance (`'monthli' <-> 'plan'`), and what holding them adds. */
export interface Phrase {
  query: string;
  weight: number;
}

/**
 * The message's neighbouring terms as phrases (issue 30 §2): "monthly plan", "custom plan" or
 * "languages … bot" held at the same distance in a passage say more than the words apart. Positions
 * come from `to_tsvector` (stop words keep their place, in the message and in the passages alike).
 */
function phrasesOf(terms: readonly Term[], positions: ReadonlyMap<string, readonly number[]>): Phrase[] {
  const out: Phrase[] = [];
  for (const a of terms)
    for (const b of terms) {
      if (a === b) continue;
      const gaps = (positions.get(a.lexeme) ?? []).flatMap((pa) =>
        (positions.get(b.lexeme) ?? []).map((pb) => pb - pa),
      );
      const gap = gaps.filter((g) => g >= 1 && g <= PHRASE_SPAN).sort()[0];
      if (gap !== undefined)
        out.push({
          query: `${quote(a.lexeme)} <${gap}> ${quote(b.lexeme)}`,
          weight: (PHRASE_WEIGHT * (a.weight + b.weight)) / 2,
        });
    }
  return out;
}

/** What the search needs to know of a bot's passages as a whole. */
export interface PassagesIndex {
  /** The text search configuration they were indexed with (`spanish`, `simple`…). */
  config: string;
  /** How many there are (the N of the IDF). */
  total: number;
  /** Their average length, characters (BM25's length normalisation). */
  avgChars: number;
  /**
   * Document frequency by lexeme (exact up to {@link MAX_DF}): the whole vocabulary when `complete`
   * (a bot of at most {@link VOCABULARY_PASSAGES} passages, read once), else the lexemes asked so far.
   */
  df: Map<string, number>;
  complete: boolean;
}

/** A bot with at most this many passages has its whole vocabulary read with its index (`ts_stat`). */
export const VOCABULARY_PASSAGES = 2_000;
/** Most lexemes a large bot's table keeps before it starts again. */
const MAX_CACHED_TERMS = 20_000;
/** Most lexemes the process keeps in all bots' tables ({@link vocabularies}); the least recently used go first. */
const MAX_KEPT_TERMS = 400_000;

/**
 * Each bot's document frequencies with the state of its passages they were read from: the
 * configuration, the count, the highest id and the ids' sum. Passages are only ever inserted with
 * new ids or deleted, and a language change rewrites the configuration, so any change of the
 * passages moves one of them (the sum too when two transactions' inserts and deletes leave count
 * and highest id as they were) and the table is read again. Only saves statements: rebuilt from the database.
 */
const vocabularies = new Map<string, Vocabulary>();

/** A bot's document frequencies ({@link PassagesIndex} `df`, `complete`) and the state they were read at. */
interface Vocabulary {
  signature: string;
  df: Map<string, number>;
  complete: boolean;
}

/** Keeps a bot's table as the most recently used, the process's total under {@link MAX_KEPT_TERMS}. */
function keep(chatbotId: string, entry: Vocabulary) {
  vocabularies.delete(chatbotId);
  vocabularies.set(chatbotId, entry);
  let total = 0;
  for (const v of vocabularies.values()) total += v.df.size;
  for (const [id, v] of vocabularies) {
    if (total <= MAX_KEPT_TERMS || id === chatbotId) break;
    vocabularies.delete(id);
    total -= v.df.size;
  }
}

/**
 * {@link PassagesIndex} of a bot, or null when it has no passage: one indexed statement; for a bot
 * of at most {@link VOCABULARY_PASSAGES} passages whose passages changed since this process last
 * read them, one more that reads its vocabulary.
 */
export async function passagesIndex(db: Kysely<Database>, chatbotId: string): Promise<PassagesIndex | null> {
  const row = await db
    .selectFrom('chatbot_file_passages')
    .select((eb) => [
      eb.fn.min('lang_config').as('config'),
      eb.fn.countAll<string | number>().as('total'),
      eb.fn.max('id').as('top'),
      eb.fn.sum('id').as('sum'),
      sql<string | number>`avg(chars)`.as('avg'),
    ])
    .where('chatbot_id', '=', chatbotId)
    .executeTakeFirst();
  if (!row?.config) {
    vocabularies.delete(chatbotId);
    return null;
  }
  const total = Number(row.total);
  const index = { config: row.config, total, avgChars: Number(row.avg) || 1 };
  const signature = `${row.config}:${total}:${row.top}:${row.sum}`;
  const held = vocabularies.get(chatbotId);
  if (held?.signature === signature) {
    keep(chatbotId, held);
    return { ...index, df: held.df, complete: held.complete };
  }
  const df = new Map<string, number>();
  const complete = total <= VOCABULARY_PASSAGES;
  if (complete) {
    const { rows } = await sql<{ word: string; ndoc: number | string }>`
      SELECT word, ndoc FROM ts_stat(format('SELECT tsv FROM chatbot_file_passages WHERE chatbot_id = %L', ${chatbotId}::text))`.execute(
      db,
    );
    for (const r of rows) df.set(r.word, Number(r.ndoc));
  }
  keep(chatbotId, { signature, df, complete });
  return { ...index, df, complete };
}

/** Most distinct words kept in the process's stem cache ({@link stemsOf}); the oldest go first. */
const STEM_CACHE_MAX = 50_000;
/** `config\0word` → the word's lexemes as `to_tsvector(config, word)` makes them (none: a stop word). */
const stemCache = new Map<string, readonly string[]>();

/**
 * The message's words in order, lower-cased, split where PostgreSQL's parser splits ordinary text
 * (anything not a letter, mark or digit); a word's position is its index + 1, as `to_tsvector`
 * counts them (stop words keep their place).
 */
function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
}

/**
 * The message's tokens that PostgreSQL's parser keeps whole (a file name or MIME type such as
 * `audio/midi` or `carta.pdf`, a host, an e-mail address: letters or digits joined by `/`, `.` or
 * `@`), lower-cased: the passages hold them as one lexeme, which their words alone never match.
 */
function compoundsOf(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+(?:[./@][\p{L}\p{N}]+)+/gu) ?? []).filter(
    (t) => !/^[\d.]+$/.test(t),
  );
}

/**
 * The lexemes of each word with `config` (the same snowball stemmer and stop words the passages
 * were indexed with): from the process's cache, the words it has not seen in one statement. A
 * word's stem depends on nothing but the word and the configuration, so the cache is never stale.
 */
async function stemsOf(
  db: Kysely<Database>,
  config: string,
  words: readonly string[],
): Promise<Map<string, readonly string[]>> {
  const out = new Map<string, readonly string[]>();
  const missing: string[] = [];
  for (const w of new Set(words)) {
    const hit = stemCache.get(`${config}\0${w}`);
    if (hit) out.set(w, hit);
    else missing.push(w);
  }
  if (missing.length === 0) return out;
  const { rows } = await sql<{ w: string; l: string[] | string | null }>`
    SELECT w, tsvector_to_array(to_tsvector(${config}::regconfig, w)) AS l
    FROM unnest(${missing}::text[]) w`.execute(db);
  for (const r of rows) {
    const lexemes = textArray(r.l);
    out.set(r.w, lexemes);
    if (stemCache.size >= STEM_CACHE_MAX) stemCache.delete(stemCache.keys().next().value!);
    stemCache.set(`${config}\0${r.w}`, lexemes);
  }
  return out;
}

/**
 * The document frequency of each lexeme among the bot's passages (at most {@link MAX_DF}): from
 * the index's table, which holds the whole vocabulary of a small bot; the lexemes a large bot's
 * table lacks are counted with the GIN index in one statement and kept there.
 */
async function frequencies(
  db: Kysely<Database>,
  chatbotId: string,
  index: PassagesIndex,
  lexemes: readonly string[],
): Promise<void> {
  const missing = index.complete ? [] : lexemes.filter((l) => !index.df.has(l));
  if (missing.length === 0) return;
  const { rows } = await sql<{ l: string; n: number | string }>`
    SELECT l, (SELECT count(*) FROM (SELECT 1 FROM chatbot_file_passages p
        WHERE p.chatbot_id = ${chatbotId} AND p.tsv @@ plainto_tsquery('simple', l)
        LIMIT ${MAX_DF}) s) AS n
    FROM unnest(${missing}::text[]) l`.execute(db);
  if (index.df.size + rows.length > MAX_CACHED_TERMS) index.df.clear();
  for (const r of rows) index.df.set(r.l, Number(r.n));
}

/**
 * The terms of the message and of the history (normalised with `config`), each weighted by its
 * inverse document frequency among the bot's passages, `ln(1 + (N − n + 0.5) / (n + 0.5))` (as
 * engine/ranking/bm25.ts), the history's by {@link HISTORY_WEIGHT} more. Warm, no statement at
 * all: the stems come from the process's cache and the frequencies from the index's table.
 */
export async function weightedTerms(
  db: Kysely<Database>,
  chatbotId: string,
  index: PassagesIndex,
  message: string,
  past: string,
): Promise<{ terms: Term[]; past: Term[]; phrases: Phrase[] }> {
  const said = wordsOf(message);
  const before = wordsOf(past);
  const joined = compoundsOf(message);
  const stems = await stemsOf(db, index.config, [...said, ...before, ...joined]);
  const positions = new Map<string, number[]>();
  said.forEach((w, i) => {
    for (const l of stems.get(w) ?? []) positions.set(l, [...(positions.get(l) ?? []), i + 1]);
  });
  // A compound's lexeme ('audio/midi') is a term too, placed apart: it makes no phrase.
  joined.forEach((w, i) => {
    for (const l of stems.get(w) ?? []) if (!positions.has(l)) positions.set(l, [said.length + 10 * (i + 1)]);
  });
  const earlier = [...new Set(before.flatMap((w) => stems.get(w) ?? []))].filter((l) => !positions.has(l));
  await frequencies(db, chatbotId, index, [...positions.keys(), ...earlier]);
  const weigh = (lexeme: string): Term | null => {
    const n = index.df.get(lexeme) ?? 0;
    return n > 0 ? { lexeme, weight: Math.log(1 + (index.total - n + 0.5) / (n + 0.5)) } : null;
  };
  const byWeight = (a: Term, b: Term) => b.weight - a.weight || (a.lexeme < b.lexeme ? -1 : 1);
  const weighed = (lexemes: Iterable<string>) =>
    [...lexemes]
      .map(weigh)
      .filter((t): t is Term => t !== null)
      .sort(byWeight)
      .slice(0, MAX_TERMS);
  const terms = weighed(positions.keys());
  return {
    terms,
    phrases: phrasesOf(terms, positions),
    past: weighed(earlier).map((t) => ({ ...t, weight: t.weight * HISTORY_WEIGHT })),
  };
}
