/**
 * The durable inbox of channel updates (issue 5; table `channel_updates`). An adapter stores an
 * update before acknowledging it ({@link storeUpdate}), then the inbox (engine/channels/inbox.ts)
 * handles it and marks it done or failed. A row left `pending` by a crash is handled on the next
 * start ({@link pendingUpdates}).
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../database.ts';

/** An update read back from the inbox. */
export interface InboxRow {
  /** The row id (a bigint, as text). */
  id: string;
  channel: string;
  chatbotId: string;
  updateKey: string;
  chatId: string;
  payload: unknown;
  attempts: number;
}

/** What {@link storeUpdate} stores. */
export interface UpdateToStore {
  channel: string;
  chatbotId: string;
  /** The channel's own id of the update, unique per bot (Telegram: `<bot id>:<update_id>`). */
  updateKey: string;
  chatId: string;
  payload: unknown;
}

/**
 * Stores an update unless the same `(channel, chatbot, updateKey)` is already stored.
 * @returns the new row, or null for a redelivery (already stored: nothing to do).
 */
export async function storeUpdate(db: Kysely<Database>, update: UpdateToStore): Promise<InboxRow | null> {
  const row = await db
    .insertInto('channel_updates')
    .values({
      channel: update.channel,
      chatbot_id: update.chatbotId,
      update_key: update.updateKey,
      chat_id: update.chatId,
      payload: JSON.stringify(update.payload),
    })
    .onConflict((oc) => oc.columns(['channel', 'chatbot_id', 'update_key']).doNothing())
    .returning(sql<string>`id::text`.as('id'))
    .executeTakeFirst();
  if (!row) return null;
  return { ...update, id: row.id, attempts: 0 };
}

/**
 * Pending updates of a channel (optionally of one bot), oldest first: what a crash left behind.
 * @param limit at most this many rows.
 */
export async function pendingUpdates(
  db: Kysely<Database>,
  channel: string,
  options: { chatbotId?: string; limit?: number; leaseMs?: number } = {},
): Promise<InboxRow[]> {
  let q = db
    .selectFrom('channel_updates')
    .select([
      sql<string>`id::text`.as('id'),
      'channel',
      'chatbot_id',
      'update_key',
      'chat_id',
      'payload',
      'attempts',
    ])
    .where('channel', '=', channel)
    .where('status', '=', 'pending')
    .where((eb) =>
      eb.or([
        eb('claimed_at', 'is', null),
        eb('claimed_at', '<', sql<Date>`now() - ${lease(options.leaseMs)}`),
      ]),
    );
  if (options.chatbotId) q = q.where('chatbot_id', '=', options.chatbotId);
  const rows = await q
    .orderBy('id')
    .limit(options.limit ?? 1000)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    channel: r.channel,
    chatbotId: r.chatbot_id,
    updateKey: r.update_key,
    chatId: r.chat_id,
    payload: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload,
    attempts: r.attempts,
  }));
}

/** `interval` of a lease in ms (default 60 s). */
function lease(ms = 60_000) {
  return sql`make_interval(secs => ${ms / 1000})`;
}

/**
 * Claims a pending update for this process: true when it was free (never claimed, released, or
 * its claim is older than `leaseMs`, i.e. its process died); false when another process holds it
 * or it was handled meanwhile.
 */
export async function claimUpdate(db: Kysely<Database>, id: string, leaseMs?: number): Promise<boolean> {
  const row = await db
    .updateTable('channel_updates')
    .set({ claimed_at: sql`now()` })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where((eb) =>
      eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', sql<Date>`now() - ${lease(leaseMs)}`)]),
    )
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Renews this process's claims on updates it is still handling. */
export async function renewClaims(db: Kysely<Database>, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('channel_updates')
    .set({ claimed_at: sql`now()` })
    .where('id', 'in', [...ids])
    .where('status', '=', 'pending')
    .execute();
}

/** Releases a claim without counting an attempt (the update is deferred). */
export async function releaseUpdate(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('channel_updates').set({ claimed_at: null }).where('id', '=', id).execute();
}

/** Marks an update handled. */
export async function markUpdateDone(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .updateTable('channel_updates')
    .set({ status: 'done', handled_at: new Date(), last_error: null })
    .where('id', '=', id)
    .execute();
}

/**
 * Records a failed attempt; after the last allowed attempt the update is `failed` and stays in
 * the table for the operator (`last_error` says why).
 */
export async function markUpdateFailed(
  db: Kysely<Database>,
  id: string,
  error: string,
  final: boolean,
): Promise<void> {
  await db
    .updateTable('channel_updates')
    .set({
      attempts: sql`attempts + 1`,
      last_error: error.slice(0, 1000),
      claimed_at: null,
      ...(final ? { status: 'failed' as const, handled_at: new Date() } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/**
 * Deletes handled updates (`done`) older than `before`; pending and failed ones stay (the first
 * are still to answer, the second are for the operator).
 * @returns how many rows were deleted.
 */
export async function pruneDoneUpdates(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('channel_updates')
    .where('status', '=', 'done')
    .where('handled_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The newest updates that failed for good (issue 26 §6, the operator's "recent errors"): channel,
 * bot, attempts, `last_error` (up to 1000 characters) and when it was given up, newest first.
 * @param limit at most this many rows.
 */
export async function recentFailedUpdates(db: Kysely<Database>, limit = 20) {
  return db
    .selectFrom('channel_updates')
    .select(['id', 'channel', 'chatbot_id', 'attempts', 'last_error', 'received_at', 'handled_at'])
    .where('status', '=', 'failed')
    .orderBy('handled_at', 'desc')
    .limit(limit)
    .execute();
}

/**
 * The newest background jobs that failed for good (pg-boss `failed`, in the jobs schema that goes
 * with the store's: engine/jobs `jobsSchemaOf`), newest first; empty before the job queue made its
 * tables. `output` is pg-boss's record of the last error.
 */
export async function recentFailedJobs(
  db: Kysely<Database>,
  limit = 20,
): Promise<Array<{ id: string; name: string; output: unknown; completed_on: Date | string | null }>> {
  const { rows } = await sql<{ s: string; jobs: boolean }>`
    select current_schema() as s,
           to_regclass(case when current_schema() = 'public' then 'pgboss' else current_schema() || '_pgboss' end || '.job') is not null as jobs`.execute(
    db,
  );
  const store = rows[0];
  if (!store?.jobs) return [];
  const schema = store.s === 'public' ? 'pgboss' : `${store.s}_pgboss`;
  const res = await sql<{ id: string; name: string; output: unknown; completed_on: Date | string | null }>`
    select id::text as id, name, output, completed_on from ${sql.table(`${schema}.job`)}
     where state = 'failed' order by completed_on desc nulls last limit ${limit}`.execute(db);
  return res.rows;
}
