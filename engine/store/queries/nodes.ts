/**
 * The Charla processes on one PostgreSQL database (issue 26 §2; table `nodes`, engine/nodes.ts):
 * each registers with its secret's fingerprint, says it is alive, and leaves at a clean stop.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../database.ts';

/**
 * Takes the transaction-scoped advisory lock of node registration (`pg_advisory_xact_lock`), so
 * one node registers at a time. Call it with a transaction's handle: the lock is held until that
 * transaction ends (with a plain `db` it would be released at once).
 */
export async function lockNodeRegistration(trx: Kysely<Database>): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('charla:nodes'))`.execute(trx);
}

/** The nodes seen in the last `staleMs` ms: id, host, pid and secret fingerprint. */
export async function liveNodes(
  db: Kysely<Database>,
  staleMs: number,
): Promise<Array<{ id: string; host: string; pid: number; secret_fingerprint: string }>> {
  return db
    .selectFrom('nodes')
    .select(['id', 'host', 'pid', 'secret_fingerprint'])
    .where('seen_at', '>', sql<Date>`now() - make_interval(secs => ${staleMs / 1000})`)
    .execute();
}

/** Stores a node, seen now. */
export async function insertNode(
  db: Kysely<Database>,
  node: { id: string; host: string; pid: number; role: string; fingerprint: string; shared: boolean },
): Promise<void> {
  await db
    .insertInto('nodes')
    .values({
      id: node.id,
      host: node.host,
      pid: node.pid,
      role: node.role,
      secret_fingerprint: node.fingerprint,
      secret_shared: node.shared,
    })
    .execute();
}

/** Removes the rows of nodes not seen for `olderThanMs` ms (crashed nodes leave theirs). */
export async function removeGoneNodes(db: Kysely<Database>, olderThanMs: number): Promise<void> {
  await db
    .deleteFrom('nodes')
    .where('seen_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanMs / 1000})`)
    .execute();
}

/** Records that a node is alive (`seen_at` now). */
export async function touchNode(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('nodes').set({ seen_at: sql`now()` }).where('id', '=', id).execute();
}

/** Removes a node's row (its clean stop). */
export async function removeNode(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('nodes').where('id', '=', id).execute();
}
