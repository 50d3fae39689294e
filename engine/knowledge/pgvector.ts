/**
 * The passages' embeddings in pgvector where the database has it (issue 30 §2: "stored with
 * pgvector where available (PGlite has the extension)").
 *
 * `chatbot_file_passage_embeddings.embedding real[]` stays the stored value on every database (a
 * PostgreSQL without the extension, such as Debian 12's, keeps working). Where the `vector`
 * extension is installed or can be (PGlite always: the store loads it at open; PostgreSQL when the
 * operator installed pgvector, even after Charla's first start), {@link ensureVectorColumn} adds
 * `vec vector`, generated from `embedding`, so no writer can forget it, and the nearest passages
 * of a bot are found by PostgreSQL ({@link nearestInDatabase}: inner product, the vectors being
 * unit length) instead of a matrix held by each Node process (./vectors.ts).
 *
 * No HNSW index: one would serve every bot of the table, and a search filtered to one bot over an
 * approximate index returns fewer than asked once other bots' passages fill its candidate list;
 * the exact distance over one bot's rows (its index on `chatbot_id`) takes a few milliseconds at
 * 10,000 passages (bench/knowledge.ts, with an embeddings server configured).
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../store/database.ts';

/** The schema the `vector` extension is installed in, or null (not installed). */
async function extensionSchema(db: Kysely<Database>): Promise<string | null> {
  const { rows } = await sql<{ schema: string }>`
    SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'vector'`.execute(db);
  return rows[0]?.schema ?? null;
}

/** Whether the current schema's embeddings table has the `vec` column. */
async function hasVectorColumn(db: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`
    SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()
      AND table_name = 'chatbot_file_passage_embeddings' AND column_name = 'vec') AS found`.execute(db);
  return rows[0]?.found === true;
}

/** A schema name as an SQL identifier. */
const ident = (name: string) => sql.id(name);

/**
 * Adds the `vec` column where pgvector is installed or available (installing the extension in
 * `public` once per database; a race between two starting nodes is ignored, as for btree_gist).
 * Idempotent and cheap when done: run at every start with an embeddings server configured
 * (./job.ts `backfillKnowledge`), unless `CHARLA_EMBEDDINGS_PGVECTOR=off`. The first time it
 * rewrites the embeddings table (a generated column is stored), holding it meanwhile; it waits at
 * most {@link LOCK_TIMEOUT} for the table (then throws, and the next start tries again).
 * @throws the database's errors (the caller logs them; searches go on in the process).
 * @returns whether the column is there.
 */
export async function ensureVectorColumn(db: Kysely<Database>): Promise<boolean> {
  const schema = await addVectorColumn(db);
  support.set(db, Promise.resolve(schema));
  return schema !== null;
}

/** Most time the column's addition waits for the embeddings table before giving up until the next start. */
const LOCK_TIMEOUT = '5s';

/** {@link ensureVectorColumn}'s work: the extension's schema when the column is there, else null. */
async function addVectorColumn(db: Kysely<Database>): Promise<string | null> {
  let schema = await extensionSchema(db);
  if (schema && (await hasVectorColumn(db))) return schema;
  if (!schema) {
    const { rows } = await sql<{ available: boolean }>`
      SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available`.execute(db);
    if (!rows[0]?.available) return null;
    try {
      await sql
        .raw(
          `DO $$ BEGIN CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public;
           EXCEPTION WHEN unique_violation OR duplicate_object THEN NULL; END $$`,
        )
        .execute(db);
    } catch {
      // Not allowed to install extensions here (pgvector is not a trusted extension): real[] it is.
      return null;
    }
    schema = await extensionSchema(db);
    if (!schema) return null;
  }
  // The table is rewritten (the column is stored) and held meanwhile: wait at most LOCK_TIMEOUT
  // for it, else the next start tries again; searches go on in the process until then.
  const vector = sql`${ident(schema)}.vector`;
  await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL lock_timeout = ${sql.lit(LOCK_TIMEOUT)}`.execute(trx);
    await sql`ALTER TABLE chatbot_file_passage_embeddings ADD COLUMN IF NOT EXISTS
      vec ${vector} GENERATED ALWAYS AS (embedding::${vector}) STORED`.execute(trx);
  });
  return schema;
}

/** Per database handle: the extension's schema when the embeddings table has `vec`, else null. */
const support = new WeakMap<Kysely<Database>, Promise<string | null>>();

/**
 * The schema of the `vector` extension when this database searches embeddings with it (the
 * `vec` column exists), else null; asked once per database handle.
 */
export function vectorSupport(db: Kysely<Database>): Promise<string | null> {
  let found = support.get(db);
  if (!found) {
    found = hasVectorColumn(db).then((has) => (has ? extensionSchema(db) : null));
    support.set(db, found);
    found.catch(() => support.delete(db));
  }
  return found;
}

/**
 * Forgets what {@link vectorSupport} found for `db`: the next search asks again (the column or the
 * extension is gone: `DROP EXTENSION vector CASCADE` drops the column).
 */
export function forgetVectorSupport(db: Kysely<Database>): void {
  support.delete(db);
}

/** True for the errors of a search whose column, type or operator no longer exists. */
export function isVectorGone(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '42703' || code === '42704' || code === '42883' || code === '3F000';
}

/**
 * The bot's `n` passages nearest to `query` (a unit vector) by pgvector, best first, with their
 * cosine (the inner product of unit vectors). Passages embedded with another size are skipped.
 * @param schema the extension's schema ({@link vectorSupport}).
 */
export async function nearestInDatabase(
  db: Kysely<Database>,
  schema: string,
  chatbotId: string,
  model: string,
  query: readonly number[],
  n: number,
): Promise<Array<{ id: string; score: number }>> {
  const v = sql`${`[${query.join(',')}]`}::${ident(schema)}.vector`;
  const ip = sql`e.vec OPERATOR(${ident(schema)}.<#>) ${v}`;
  const { rows } = await sql<{ id: string | number; score: number }>`
    SELECT e.passage_id AS id, (-(${ip}))::float8 AS score
    FROM chatbot_file_passage_embeddings e
    WHERE e.chatbot_id = ${chatbotId} AND e.model = ${model}
      AND ${ident(schema)}.vector_dims(e.vec) = ${query.length}
    ORDER BY ${ip}, e.passage_id
    LIMIT ${n}`.execute(db);
  return rows.map((r) => ({ id: String(r.id), score: Number(r.score) }));
}
