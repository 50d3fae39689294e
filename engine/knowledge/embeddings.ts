/**
 * Optional embeddings of the files' passages (issue 30 §2): any OpenAI-compatible
 * `POST /v1/embeddings` server, configured with `CHARLA_EMBEDDINGS_BASE_URL` and
 * `CHARLA_EMBEDDINGS_MODEL` (optional `CHARLA_EMBEDDINGS_API_KEY`; engine/config.ts), through the
 * `openai` SDK as engine/conversation/llm.ts makes its client (time limit and bounded retries by the
 * SDK). Without those settings nothing here runs.
 *
 * Storage: `chatbot_file_passage_embeddings.embedding real[]`, unit length
 * (migrations/202611291340_passage_embeddings.ts), on every database; where pgvector is installed
 * or installable (PGlite always), a generated `vec vector` column beside it, searched by PostgreSQL
 * (./pgvector.ts); elsewhere cosine is scored in the process (./vectors.ts).
 */
import type { Kysely } from 'kysely';
import type OpenAI from 'openai';
import type { Database } from '../store/database.ts';

/** Most inputs in one request to the embeddings server. */
export const EMBED_BATCH = 64;
/** Time limit of one request of the embedding job, ms. */
const JOB_TIMEOUT_MS = 60_000;
/** Time limit of the embedding of a follower's message, ms: past it the turn searches text only. */
export const QUERY_TIMEOUT_MS = 1_500;
/** Longest passage text sent, characters (servers cut at ~8k tokens anyway). */
const MAX_INPUT_CHARS = 8_000;

/** Settings of {@link createEmbedder} (CharlaConfig `embeddings`). */
export interface EmbeddingSettings {
  baseURL: string;
  model: string;
  apiKey: string;
  /** Whether a start may set pgvector's column up (`CHARLA_EMBEDDINGS_PGVECTOR`; default true). */
  pgvector?: boolean;
}

/** What Charla needs from an embeddings server. */
export interface Embedder {
  /** The model name; stored with each embedding (`chatbot_file_passage_embeddings.model`). */
  readonly model: string;
  /** Whether a start may set pgvector's column up where available (./pgvector.ts). */
  readonly pgvector: boolean;
  /**
   * Embeds texts (at most {@link EMBED_BATCH}) and returns unit-length vectors, in order.
   * `quick`: one try within {@link QUERY_TIMEOUT_MS} (a follower's message); else the job's limit and
   * two retries by the SDK.
   * @throws the SDK's errors (APIError, APIConnectionError, APIConnectionTimeoutError).
   */
  embed(texts: readonly string[], options?: { quick?: boolean; signal?: AbortSignal }): Promise<number[][]>;
}

/** A vector scaled to length 1 (a zero vector stays zero). */
export function unit(v: readonly number[]): number[] {
  let n = 0;
  for (const x of v) n += x * x;
  const len = Math.sqrt(n) || 1;
  return v.map((x) => x / len);
}

/** An {@link Embedder} on the `openai` SDK, or null when `settings` is undefined (not configured). */
export function createEmbedder(settings: EmbeddingSettings | undefined): Embedder | null {
  if (!settings) return null;
  let client: Promise<OpenAI> | undefined;
  const sdk = () =>
    (client ??= import('openai').then(
      ({ default: OpenAIClient }) =>
        new OpenAIClient({
          apiKey: settings.apiKey,
          baseURL: settings.baseURL,
          timeout: JOB_TIMEOUT_MS,
          maxRetries: 2,
        }),
    ));
  return {
    model: settings.model,
    pgvector: settings.pgvector !== false,
    async embed(texts, options = {}) {
      if (texts.length === 0) return [];
      const result = await (await sdk()).embeddings.create(
        // `float`: the SDK would ask for base64 otherwise, which not every compatible server speaks.
        {
          model: settings.model,
          input: texts.map((t) => t.slice(0, MAX_INPUT_CHARS)),
          encoding_format: 'float',
        },
        {
          ...(options.quick ? { timeout: QUERY_TIMEOUT_MS, maxRetries: 0 } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        },
      );
      const byIndex = [...result.data].sort((a, b) => a.index - b.index);
      if (byIndex.length !== texts.length) throw new Error('the embeddings server returned a wrong count');
      return byIndex.map((d) => unit(d.embedding));
    },
  };
}

/**
 * Embeds the passages of one file that have no embedding of `embedder.model` (a passage re-indexed
 * gets a new id, so it has none), {@link EMBED_BATCH} at a time, each batch written at once
 * (a retried job goes on where the last stopped). Passages deleted meanwhile are skipped.
 * @returns how many passages were embedded.
 * @throws the embedder's errors (the job retries).
 */
export async function embedFilePassages(
  db: Kysely<Database>,
  embedder: Embedder,
  fileId: string,
  signal?: AbortSignal,
): Promise<number> {
  let done = 0;
  for (;;) {
    const rows = await db
      .selectFrom('chatbot_file_passages as p')
      .leftJoin('chatbot_file_passage_embeddings as e', (j) =>
        j.onRef('e.passage_id', '=', 'p.id').on('e.model', '=', embedder.model),
      )
      .select(['p.id', 'p.chatbot_id', 'p.heading', 'p.text'])
      .where('p.file_id', '=', fileId)
      .where('e.passage_id', 'is', null)
      .orderBy('p.id')
      .limit(EMBED_BATCH)
      .execute();
    if (rows.length === 0) return done;
    const vectors = await embedder.embed(
      rows.map((r) => `${r.heading} ${r.text}`.trim()),
      signal ? { signal } : {},
    );
    const ids = rows.map((r) => r.id);
    const alive = new Set(
      (await db.selectFrom('chatbot_file_passages').select('id').where('id', 'in', ids).execute()).map((r) =>
        String(r.id),
      ),
    );
    const values = rows
      .map((r, i) => ({
        passage_id: r.id,
        chatbot_id: r.chatbot_id,
        model: embedder.model,
        embedding: vectors[i]!,
      }))
      .filter((v) => alive.has(String(v.passage_id)));
    if (values.length === 0) return done;
    await db
      .insertInto('chatbot_file_passage_embeddings')
      .values(values)
      .onConflict((oc) =>
        oc.column('passage_id').doUpdateSet((eb) => ({
          model: eb.ref('excluded.model'),
          embedding: eb.ref('excluded.embedding'),
        })),
      )
      .execute();
    done += values.length;
    if (rows.length < EMBED_BATCH) return done;
  }
}
