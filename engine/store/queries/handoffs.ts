/**
 * Sends handed to the node holding a bot's connection (issue 26 §2; table `channel_handoffs`,
 * engine/channels/handoff.ts). A row goes `pending` → `sending` (claimed by one holder) → `sent`
 * or `failed`; a holder that lost the connection meanwhile puts it back to `pending`.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../database.ts';

/** A handoff's status (`channel_handoffs.status`). */
export type HandoffStatus = 'pending' | 'sending' | 'sent' | 'failed';

/**
 * Stores a send to hand off, `pending`.
 * @param handoff.message the message as stored: JSON-serialisable (a voice note's bytes as base64).
 * @returns the new row's id (a bigint, as text).
 */
export async function insertHandoff(
  db: Kysely<Database>,
  handoff: { channel: string; chatbotId: string; chatId: string; message: unknown },
): Promise<string> {
  const row = await db
    .insertInto('channel_handoffs')
    .values({
      channel: handoff.channel,
      chatbot_id: handoff.chatbotId,
      chat_id: handoff.chatId,
      message: JSON.stringify(handoff.message),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return String(row.id);
}

/** The ids (as text) of a bot's pending handoffs on a channel, oldest first. */
export async function pendingHandoffIds(
  db: Kysely<Database>,
  channel: string,
  chatbotId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('channel_handoffs')
    .select('id')
    .where('channel', '=', channel)
    .where('chatbot_id', '=', chatbotId)
    .where('status', '=', 'pending')
    .orderBy('id')
    .execute();
  return rows.map((r) => String(r.id));
}

/**
 * A handoff's status, receipt (the channel's, as stored) and error.
 * @returns undefined when there is no such row.
 */
export async function findHandoff(
  db: Kysely<Database>,
  id: string,
): Promise<{ status: HandoffStatus; receipt: unknown; error: string | null } | undefined> {
  return db
    .selectFrom('channel_handoffs')
    .select(['status', 'receipt', 'error'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Claims a pending handoff: one UPDATE `pending` → `sending`, so only one node gets it.
 * @returns what to send; undefined when it was not pending (another node claimed it, or it is done).
 */
export async function claimHandoff(
  db: Kysely<Database>,
  id: string,
): Promise<{ chatbot_id: string; chat_id: string; message: unknown } | undefined> {
  return db
    .updateTable('channel_handoffs')
    .set({ status: 'sending' })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returning(['chatbot_id', 'chat_id', 'message'])
    .executeTakeFirst();
}

/** What became of a claimed handoff ({@link settleHandoff}). */
export type HandoffOutcome =
  | { status: 'sent'; receipt: unknown }
  | { status: 'failed'; error: string }
  | { status: 'pending' };

/**
 * Records what became of a claimed handoff: `sent` with the channel's receipt (JSON-serialisable,
 * or null), `failed` with the channel's error, or back to `pending` (the holder lost the
 * connection: the next holder sends it). `done_at` is now, or null when back to pending.
 */
export async function settleHandoff(
  db: Kysely<Database>,
  id: string,
  outcome: HandoffOutcome,
): Promise<void> {
  const set =
    outcome.status === 'sent'
      ? { status: outcome.status, receipt: outcome.receipt ? JSON.stringify(outcome.receipt) : null }
      : outcome.status === 'failed'
        ? { status: outcome.status, error: outcome.error }
        : { status: outcome.status };
  await db
    .updateTable('channel_handoffs')
    .set({ ...set, done_at: outcome.status === 'pending' ? null : sql`now()` })
    .where('id', '=', id)
    .execute();
}
