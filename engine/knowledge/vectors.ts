/**
 * The vector half of hybrid retrieval (issue 30 §2): cosine between a follower's message and a bot's
 * embedded passages, fused with the full-text ranking by reciprocal rank fusion.
 *
 * Where the database has pgvector, PostgreSQL scores them (./pgvector.ts). Elsewhere cosine is
 * scored in JS over the bot's embeddings (unit length, so a dot product), held as one
 * Float32Array per bot and model. The matrix is a cache of rows in PostgreSQL, checked at every
 * search with one indexed statement (count, highest and sum of the passage ids: passages are only
 * ever deleted or inserted with new ids, so any change moves one of them) and read again when it changed; at
 * most {@link CACHE_FLOATS} numbers are kept in all (least recently used bots go first). No other
 * node needs it: it is rebuilt from the database.
 */
import { type Kysely, sql } from 'kysely';
import type { Logger } from '../logger.ts';
import type { Database } from '../store/database.ts';
import type { Embedder } from './embeddings.ts';
import { forgetVectorSupport, isVectorGone, nearestInDatabase, vectorSupport } from './pgvector.ts';

/** Most numbers kept in the cache, all bots together (4 bytes each: 128 MiB). */
const CACHE_FLOATS = 32 * 1024 * 1024;
/** Passages of each ranked list fused (issue 30 §2: hybrid, reciprocal rank fusion). */
export const HYBRID_DEPTH = 20;
/** Reciprocal rank fusion's constant (Cormack et al. 2009). */
export const RRF_K = 60;

/** A bot's embeddings as one matrix. */
interface Matrix {
  signature: string;
  ids: string[];
  dims: number;
  data: Float32Array;
}

const cache = new Map<string, Matrix>();

/** An array as the driver returns it (an array, or `{0.1,0.2}` text). */
const floats = (v: number[] | string): number[] =>
  Array.isArray(v) ? v : v.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);

/** True when the bot has embeddings of `model` (one indexed lookup). */
export async function hasEmbeddings(
  db: Kysely<Database>,
  chatbotId: string,
  model: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('chatbot_file_passage_embeddings')
    .select('passage_id')
    .where('chatbot_id', '=', chatbotId)
    .where('model', '=', model)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The bot's matrix, from the cache when the table has not changed. */
async function matrixOf(db: Kysely<Database>, chatbotId: string, model: string): Promise<Matrix | null> {
  const key = `${chatbotId}\n${model}`;
  const { rows } = await sql<{
    n: string | number;
    top: string | number | null;
    total: string | number | null;
  }>`
    SELECT count(*) AS n, max(passage_id) AS top, sum(passage_id) AS total FROM chatbot_file_passage_embeddings
    WHERE chatbot_id = ${chatbotId} AND model = ${model}`.execute(db);
  const signature = `${rows[0]?.n ?? 0}:${rows[0]?.top ?? ''}:${rows[0]?.total ?? ''}`;
  const held = cache.get(key);
  if (held?.signature === signature) {
    cache.delete(key);
    cache.set(key, held); // most recently used last
    return held;
  }
  const found = await db
    .selectFrom('chatbot_file_passage_embeddings')
    .select(['passage_id', 'embedding'])
    .where('chatbot_id', '=', chatbotId)
    .where('model', '=', model)
    .execute();
  if (found.length === 0) return null;
  const dims = floats(found[0]!.embedding).length;
  const data = new Float32Array(found.length * dims);
  const ids: string[] = [];
  for (const row of found) {
    const v = floats(row.embedding);
    if (v.length !== dims) continue;
    data.set(v, ids.length * dims);
    ids.push(String(row.passage_id));
  }
  const matrix = { signature, ids, dims, data: data.subarray(0, ids.length * dims) };
  cache.delete(key);
  if (matrix.data.length <= CACHE_FLOATS) {
    cache.set(key, matrix);
    let total = 0;
    for (const m of cache.values()) total += m.data.length;
    for (const [k, m] of cache) {
      if (total <= CACHE_FLOATS) break;
      cache.delete(k);
      total -= m.data.length;
    }
  }
  return matrix;
}

/**
 * The bot's `n` passages nearest to `query` (a unit vector), best first: passage ids with their
 * cosine. Empty when the bot has no embeddings of `model` or their size differs from the query's.
 * Where the database has pgvector (./pgvector.ts), PostgreSQL scores them; else this process, over
 * its cached matrix of the bot. A database that lost pgvector meanwhile is searched here.
 */
export async function nearestPassages(
  db: Kysely<Database>,
  chatbotId: string,
  model: string,
  query: readonly number[],
  n: number,
): Promise<Array<{ id: string; score: number }>> {
  const schema = await vectorSupport(db);
  if (schema)
    try {
      return await nearestInDatabase(db, schema, chatbotId, model, query, n);
    } catch (err) {
      if (!isVectorGone(err)) throw err;
      forgetVectorSupport(db);
    }
  const m = await matrixOf(db, chatbotId, model);
  if (!m || m.dims !== query.length) return [];
  const q = Float32Array.from(query);
  const best: Array<{ id: string; score: number }> = [];
  for (let r = 0; r < m.ids.length; r++) {
    let dot = 0;
    const off = r * m.dims;
    for (let d = 0; d < m.dims; d++) dot += m.data[off + d]! * q[d]!;
    if (best.length < n || dot > best[best.length - 1]!.score) {
      best.push({ id: m.ids[r]!, score: dot });
      best.sort((a, b) => b.score - a.score);
      if (best.length > n) best.pop();
    }
  }
  return best;
}

/**
 * Reciprocal rank fusion of ranked id lists: each id scores `Σ 1 / (RRF_K + rank)` (rank 1-based)
 * over the lists it appears in; best first, ties in the order first seen.
 */
export function fuseRanks(lists: ReadonlyArray<readonly string[]>): Array<{ id: string; score: number }> {
  const scores = new Map<string, number>();
  for (const list of lists)
    for (const [i, id] of list.entries()) scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + i + 1));
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}

/** What {@link fuseWithVectors} needs. */
export interface HybridQuery {
  chatbotId: string;
  embedder: Embedder;
  message: string;
  /** Passages returned. */
  k: number;
  /** Whether the bot has embeddings of the model; asked when omitted. */
  embedded?: boolean;
  log?: Pick<Logger, 'warn'>;
}

/**
 * The text ranking `text` (best first, at least {@link HYBRID_DEPTH} deep when it has them) fused
 * with the message's nearest embedded passages, top `k`, each scored with its fused rank; `load`
 * reads the vector hits the text did not find. The message is embedded in one call of at most
 * 1.5 s (./embeddings.ts `QUERY_TIMEOUT_MS`); when it fails (logged), or the bot has no embeddings
 * of the model, the text ranking's first `k` come back as they are.
 */
export async function fuseWithVectors<T extends { id: string; score: number }>(
  db: Kysely<Database>,
  query: HybridQuery,
  text: readonly T[],
  load: (ids: string[]) => Promise<T[]>,
): Promise<T[]> {
  let near: Array<{ id: string; score: number }> = [];
  try {
    if (query.embedded ?? (await hasEmbeddings(db, query.chatbotId, query.embedder.model))) {
      const [vector] = await query.embedder.embed([query.message], { quick: true });
      near = await nearestPassages(db, query.chatbotId, query.embedder.model, vector ?? [], HYBRID_DEPTH);
    }
  } catch (err) {
    query.log?.warn(
      { err, chatbotId: query.chatbotId },
      'knowledge: vector search failed (embedding the message or scoring); text search only',
    );
  }
  if (near.length === 0) return text.slice(0, query.k);
  const order = fuseRanks([text.map((p) => p.id), near.map((p) => p.id)]).slice(0, query.k);
  const known = new Set(text.map((p) => p.id));
  const missing = order.map((o) => o.id).filter((id) => !known.has(id));
  const byId = new Map([...text, ...(missing.length ? await load(missing) : [])].map((p) => [p.id, p]));
  return order.flatMap((o) => {
    const p = byId.get(o.id);
    return p ? [{ ...p, score: o.score }] : [];
  });
}
