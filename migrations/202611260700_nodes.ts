/**
 * The Charla processes running on this database (issue 26 §2): each registers at start, says it is
 * alive every 30 s and leaves at a clean stop. A start compares its secret's fingerprint with the
 * live nodes' (engine/nodes.ts): a node whose secret differs would make cookies, e-mail links and
 * encrypted bot tokens that the others cannot read, so it refuses to start.
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `CREATE TABLE nodes (
      id text PRIMARY KEY,
      host text NOT NULL,
      pid integer NOT NULL,
      role text NOT NULL,
      secret_fingerprint text NOT NULL,
      secret_shared boolean NOT NULL,
      started_at timestamptz NOT NULL DEFAULT now(),
      seen_at timestamptz NOT NULL DEFAULT now()
    );`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'DROP TABLE nodes;');
}
