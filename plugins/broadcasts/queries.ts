/**
 * The broadcasts plugin's SQL: its own tables, and reads of the engine's `followers` (audience.ts)
 * and `chatbot_files` the broadcast is about.
 */
import { sql } from 'kysely';
import { CHAT_KEY, chatColumns } from '../../engine/store/queries/keys.ts';
import { audienceMembers, sendOrder } from './audience.ts';
import type { BroadcastsDb, RecipientStatus } from './tables.ts';

export {
  type BroadcastBlockedTable,
  type BroadcastRecipientsTable,
  type BroadcastsDb,
  type BroadcastsTable,
  broadcastsDb,
  type RecipientStatus,
} from './tables.ts';

/**
 * Creates a broadcast and one row per follower it counts (audience.ts): `pending` for those it is
 * sent to, `skipped` with the reason in `error` for the others (WhatsApp Cloud, blocked), in one
 * transaction with `then` (the job that sends it), so it exists only with its job. Resolves with
 * null, creating nothing, when it would be sent to nobody (issue 27 §5: 0 is refused).
 */
export async function createBroadcast(
  db: BroadcastsDb,
  b: { chatbotId: string; text: string; fileId: string | null; voice: Buffer | null; preset: string | null },
  then: (trx: BroadcastsDb, id: string) => Promise<void>,
): Promise<{ id: string; total: number; skipped: number } | null> {
  return db.transaction().execute(async (trx) => {
    const members = await audienceMembers(trx as unknown as BroadcastsDb, b.chatbotId, b.text.trim() !== '');
    const total = members.filter((m) => m.skip === null).length;
    if (total === 0) return null;
    const row = await trx
      .insertInto('broadcasts')
      .values({
        chatbot_id: b.chatbotId,
        text: b.text,
        file_id: b.fileId,
        voice: b.voice,
        preset: b.preset,
        status: 'sending',
        total,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (let i = 0; i < members.length; i += 500)
      await trx
        .insertInto('broadcast_recipients')
        .values(
          members.slice(i, i + 500).map((m) => ({
            broadcast_id: row.id,
            channel: m.channel,
            chat_id: m.chatId,
            audience: m.audience,
            status: m.skip === null ? ('pending' as const) : ('skipped' as const),
            error: m.skip,
            sent_at: null,
          })),
        )
        .execute();
    await then(trx as unknown as BroadcastsDb, row.id);
    return { id: row.id, total, skipped: members.length - total };
  });
}

/**
 * Why a recipient row was not sent (SQL): a skipped one's reason (`error`); for a failed one
 * `notConnected` (the adapters' "… is not connected", an unknown channel), `interrupted` (status
 * `unknown`) or `channel`; null for the others.
 */
const REASON = sql<string | null>`case
  when status = 'skipped' then error
  when status = 'unknown' then 'interrupted'
  when status = 'failed' and error ~* '(is not connected|no existe el canal|used before start)' then 'notConnected'
  when status = 'failed' then 'channel'
  end`;

/**
 * Recipients of some broadcasts counted by audience, status and reason (skipped, failed), for the
 * per-channel progress (issue 27 §5). Rows from before audiences were stored count by channel.
 */
export async function recipientCounts(db: BroadcastsDb, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('broadcast_recipients')
    .select([
      'broadcast_id',
      'status',
      sql<string>`coalesce(audience, channel)`.as('audience'),
      REASON.as('reason'),
      sql<number>`count(*)::int`.as('n'),
    ])
    .where('broadcast_id', 'in', [...ids])
    .groupBy(['broadcast_id', 'status', sql`coalesce(audience, channel)`, REASON])
    .execute();
}

/** A broadcast by id. */
export async function findBroadcast(db: BroadcastsDb, id: string) {
  return db.selectFrom('broadcasts').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Settles the recipients an attempt that died left `sending`. Outbox.send stores the message in
 * the conversation only after the channel took it: a recipient whose conversation holds the owner's
 * message from this broadcast on is `sent`; for the others whether Telegram got it is unknown, so
 * they are not sent again (no one gets it twice) and are counted as `unknown`. Resolves with the
 * number of recipients settled.
 */
export async function settleInterrupted(
  db: BroadcastsDb,
  b: { id: string; chatbot_id: string; text: string; created_at: Date | string },
): Promise<number> {
  const inFlight = await db
    .selectFrom('broadcast_recipients')
    .select(['channel', 'chat_id'])
    .where('broadcast_id', '=', b.id)
    .where('status', '=', 'sending')
    .execute();
  for (const r of inFlight) {
    const stored = await db
      .selectFrom('conversation_messages')
      .select('id')
      .where('chatbot_id', '=', b.chatbot_id)
      .where('channel', '=', r.channel)
      .where('user_id', '=', r.chat_id)
      .where('sender', '=', 'owner')
      .where('text', '=', b.text)
      .where('created_at', '>=', new Date(b.created_at))
      .limit(1)
      .executeTakeFirst();
    await db
      .updateTable('broadcast_recipients')
      .set(stored ? { status: 'sent' } : { status: 'unknown', error: 'interrupted while sending' })
      .where('broadcast_id', '=', b.id)
      .where('channel', '=', r.channel)
      .where('chat_id', '=', r.chat_id)
      .where('status', '=', 'sending')
      .execute();
  }
  return inFlight.length;
}

/** The next pending recipients. */
export async function nextPending(db: BroadcastsDb, id: string, n: number) {
  return db
    .selectFrom('broadcast_recipients')
    .select(['channel', 'chat_id', 'audience'])
    .where('broadcast_id', '=', id)
    .where('status', '=', 'pending')
    .orderBy(sendOrder('channel'))
    .orderBy('chat_id')
    .limit(n)
    .execute();
}

/** Moves one recipient from `from` to `to`; false when it was not in `from` (another attempt has it). */
export async function moveRecipient(
  db: BroadcastsDb,
  key: { id: string; channel: string; chatId: string },
  from: RecipientStatus,
  to: RecipientStatus,
  extra: { error?: string | null; sent_at?: Date | null } = {},
): Promise<boolean> {
  const r = await db
    .updateTable('broadcast_recipients')
    .set({ status: to, ...extra })
    .where('broadcast_id', '=', key.id)
    .where('channel', '=', key.channel)
    .where('chat_id', '=', key.chatId)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Records a follower who blocked the bot (Telegram's 403): later broadcasts leave them out until
 * they write to the bot again (their `followers.last_seen_at` moves past `blocked_at`).
 */
export async function markBlocked(
  db: BroadcastsDb,
  chatbotId: string,
  channel: string,
  chatId: string,
  now: Date,
) {
  await db
    .insertInto('broadcast_blocked')
    .values({ ...chatColumns({ chatbotId, channel, chatId }), blocked_at: now })
    .onConflict((oc) => oc.columns(CHAT_KEY).doUpdateSet({ blocked_at: now }))
    .execute();
}

/** Marks a broadcast done. */
export async function finishBroadcast(db: BroadcastsDb, id: string, now: Date) {
  await db
    .updateTable('broadcasts')
    .set({ status: 'done', finished_at: now })
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .execute();
}

/** A bot's broadcasts, newest first, with their counts. */
export async function listBroadcasts(db: BroadcastsDb, chatbotId: string, limit = 20) {
  const rows = await db
    .selectFrom('broadcasts as b')
    .leftJoin('chatbot_files as f', 'f.id', 'b.file_id')
    .select([
      'b.id',
      'b.text',
      'b.preset',
      'b.status',
      'b.total',
      'b.created_at',
      'b.finished_at',
      'f.file_name',
    ])
    .select(sql<boolean>`b.voice is not null`.as('has_voice'))
    .select((eb) =>
      (['sent', 'failed', 'blocked', 'unknown'] as const).map((s) =>
        eb
          .selectFrom('broadcast_recipients as r')
          .select(sql<number>`count(*)::int`.as('n'))
          .whereRef('r.broadcast_id', '=', 'b.id')
          .where('r.status', '=', s)
          .as(s),
      ),
    )
    .where('b.chatbot_id', '=', chatbotId)
    .orderBy('b.created_at', 'desc')
    .limit(limit)
    .execute();
  return rows;
}

/** A stored file of the bot (the broadcast's `fileKey`). */
export async function findBotFile(db: BroadcastsDb, chatbotId: string, fileId: string) {
  return db
    .selectFrom('chatbot_files')
    .select(['id', 'file_url', 'file_name', 'file_type', 'mime_type'])
    .where('chatbot_id', '=', chatbotId)
    .where('id', '=', fileId)
    .executeTakeFirst();
}

/**
 * Every broadcast of an owner's bots with its recipients, for their data export (issue 26 §5),
 * oldest first; a recorded voice note is named (`has_voice`), not included.
 */
export async function ownerBroadcasts(db: BroadcastsDb, ownerId: string) {
  const broadcasts = await db
    .selectFrom('broadcasts as b')
    .innerJoin('chatbots as c', 'c.id', 'b.chatbot_id')
    .select([
      'b.id',
      'b.chatbot_id',
      'b.text',
      'b.file_id',
      'b.preset',
      'b.status',
      'b.total',
      'b.created_at',
      'b.finished_at',
      sql<boolean>`b.voice IS NOT NULL`.as('has_voice'),
    ])
    .where('c.user_id', '=', ownerId)
    .orderBy('b.created_at')
    .execute();
  const recipients =
    broadcasts.length === 0
      ? []
      : await db
          .selectFrom('broadcast_recipients')
          .select(['broadcast_id', 'channel', 'chat_id', 'status', 'error', 'sent_at'])
          .where(
            'broadcast_id',
            'in',
            broadcasts.map((b) => b.id),
          )
          .execute();
  return broadcasts.map((b) => ({ ...b, recipients: recipients.filter((r) => r.broadcast_id === b.id) }));
}

/** Broadcast deliveries of every bot by recipient status, for `/metrics` (issue 26 §3). */
export async function recipientsByStatus(
  db: BroadcastsDb,
): Promise<Array<{ status: RecipientStatus; n: number }>> {
  return db
    .selectFrom('broadcast_recipients')
    .select(['status', sql<number>`count(*)::int`.as('n')])
    .groupBy('status')
    .execute();
}
