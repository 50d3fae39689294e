/** Rate-limit counters (engine/rate-limits.ts): one fixed window per key, shared by every process. */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../database.ts';

/** A counter after a hit: its hits in the current window and when the window ends. */
export interface CounterState {
  key: string;
  hits: number;
  resetAt: Date;
}

/**
 * Counts one hit on each key, in one statement: a key whose window ended (or that is new) starts a
 * window of `windowMs` from `now` with 1 hit; otherwise its hits go up by 1. Keys are upserted in
 * sorted order, so two requests hitting the same keys never wait on each other in a cycle.
 * @param counters distinct keys with their window length, ms.
 * @returns the state of every key after the hit (order not guaranteed).
 */
export async function hitCounters(
  db: Kysely<Database>,
  counters: ReadonlyArray<{ key: string; windowMs: number }>,
  now: Date,
): Promise<CounterState[]> {
  if (counters.length === 0) return [];
  const sorted = [...counters].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const { rows } = await sql<{ key: string; hits: number; reset_at: Date | string }>`
    INSERT INTO rate_limits AS r (key, hits, reset_at)
    SELECT t.key, 1, ${now}::timestamptz + make_interval(secs => t.window_ms / 1000.0)
    FROM unnest(${sorted.map((c) => c.key)}::text[], ${sorted.map((c) => c.windowMs)}::bigint[])
      WITH ORDINALITY AS t(key, window_ms, n)
    ORDER BY t.n
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN r.reset_at <= ${now}::timestamptz THEN 1 ELSE r.hits + 1 END,
      reset_at = CASE WHEN r.reset_at <= ${now}::timestamptz THEN excluded.reset_at ELSE r.reset_at END
    RETURNING key, hits, reset_at`.execute(db);
  return rows.map((r) => ({ key: r.key, hits: Number(r.hits), resetAt: new Date(r.reset_at) }));
}

/** Takes back `by` hits of a key in its current window (a request that turned out not to count). */
export async function refundCounter(db: Kysely<Database>, key: string, by = 1): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({ hits: sql`greatest(hits - ${by}, 0)` })
    .where('key', '=', key)
    .execute();
}

/** Forgets a key (a successful sign-in clears its failures). */
export async function clearCounter(db: Kysely<Database>, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/** The hits of a key in its current window (0 when none), without counting one. */
export async function readCounter(db: Kysely<Database>, key: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('rate_limits')
    .select('hits')
    .where('key', '=', key)
    .where('reset_at', '>', now)
    .executeTakeFirst();
  return row?.hits ?? 0;
}

/** Deletes counters whose window ended before `before`; returns how many. */
export async function pruneCounters(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db.deleteFrom('rate_limits').where('reset_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
