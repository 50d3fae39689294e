/** Sign-in failure counters (engine/auth/limits.ts). */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../database.ts';

/** Failures counted for `key` in the window that started no earlier than `since`; 0 otherwise. */
export async function recentFailures(db: Kysely<Database>, key: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('sign_in_failures')
    .select('failures')
    .where('key', '=', key)
    .where('window_started_at', '>=', since)
    .executeTakeFirst();
  return row?.failures ?? 0;
}

/** Counts one failure: in the current window, or starting a new one when the old one is older than `since`. */
export async function recordFailure(
  db: Kysely<Database>,
  key: string,
  since: Date,
  now: Date,
): Promise<void> {
  await db
    .insertInto('sign_in_failures')
    .values({ key, failures: 1, window_started_at: now })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql`case when sign_in_failures.window_started_at >= ${since} then sign_in_failures.failures + 1 else 1 end`,
        window_started_at: sql`case when sign_in_failures.window_started_at >= ${since} then sign_in_failures.window_started_at else ${now} end`,
      }),
    )
    .execute();
}

/** Forgets the failures of `key` (after a successful sign-in). */
export async function clearFailures(db: Kysely<Database>, key: string): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('key', '=', key).execute();
}
