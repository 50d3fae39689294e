/**
 * Rate-limit counters shared by every Charla process (issue 24 §2–3, issue 26 §2): one row per
 * counter key with the hits of its current fixed window and when that window ends. They replace
 * `sign_in_failures` (sign-in failures are counters of this table now, engine/rate-limits.ts) and the
 * per-process memory counters of @fastify/rate-limit, which a second node did not see.
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `CREATE TABLE rate_limits (
      key text PRIMARY KEY,
      hits integer NOT NULL,
      reset_at timestamptz NOT NULL
    );
    CREATE INDEX rate_limits_reset_at ON rate_limits (reset_at);
    DROP TABLE sign_in_failures;`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `CREATE TABLE sign_in_failures (
      key text PRIMARY KEY,
      failures integer NOT NULL,
      window_started_at timestamptz NOT NULL
    );
    DROP TABLE rate_limits;`,
  );
}
