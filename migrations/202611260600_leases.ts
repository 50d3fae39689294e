/**
 * Leases shared by every Charla process (issue 26 §2): work that exactly one node may do at a time
 * (a Telegram bot's long polling) is done by the holder of its lease, which it renews while it
 * works; when the holder dies, the lease runs out and another node takes it over.
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `CREATE TABLE leases (
      name text PRIMARY KEY,
      holder text NOT NULL,
      expires_at timestamptz NOT NULL
    );`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'DROP TABLE leases;');
}
