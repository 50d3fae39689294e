/**
 * conversation_messages and followers (spec 001 §3). A turn is stored as two rows in one
 * transaction, keyed by (chatbot, channel, message id) so a retried message is answered from the
 * store and never stored twice.
 */
import { type Kysely, sql } from 'kysely';
import type { ConversationMessage, Database, StoredTurnMeta } from '../database.ts';

/** Channel of NOTIFY events for new conversation messages; the payload is JSON `{chatbotId, channel, userId}`. */
export const MESSAGES_CHANNEL = 'charla_messages';

/** A stored turn: the follower's message and the bot's answer. */
export interface StoredTurn {
  userMessage: ConversationMessage;
  botMessage: ConversationMessage;
}

/** The stored turn of a channel message id, or undefined when the message was never answered. */
export async function findTurn(
  db: Kysely<Database>,
  key: { chatbotId: string; channel: string; messageId: string },
): Promise<StoredTurn | undefined> {
  const userMessage = await db
    .selectFrom('conversation_messages')
    .selectAll()
    .where('chatbot_id', '=', key.chatbotId)
    .where('channel', '=', key.channel)
    .where('message_id', '=', key.messageId)
    .where('sender', '=', 'user')
    .executeTakeFirst();
  if (!userMessage) return undefined;
  const botMessage = await db
    .selectFrom('conversation_messages')
    .selectAll()
    .where('reply_to', '=', userMessage.id)
    .orderBy('id')
    .executeTakeFirst();
  return botMessage ? { userMessage, botMessage } : undefined;
}

/** The last `limit` messages of one follower with one bot, oldest first. */
export async function recentMessages(
  db: Kysely<Database>,
  key: { chatbotId: string; channel: string; userId: string },
  limit: number,
): Promise<ConversationMessage[]> {
  const rows = await db
    .selectFrom('conversation_messages')
    .selectAll()
    .where('chatbot_id', '=', key.chatbotId)
    .where('channel', '=', key.channel)
    .where('user_id', '=', key.userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}

/** What {@link persistTurn} writes. */
export interface TurnToStore {
  chatbotId: string;
  channel: string;
  /** The follower's id on the channel. */
  userId: string;
  username: string | null;
  messageId: string;
  userText: string;
  botText: string;
  meta: StoredTurnMeta;
}

/**
 * Stores both messages of a turn, records the follower (first and last seen), counts the
 * response on the bot and notifies listeners, all in one transaction.
 * @returns the stored turn and `duplicate: true` when another request already stored this
 *   message id (the caller answers with the stored turn).
 */
export async function persistTurn(
  db: Kysely<Database>,
  turn: TurnToStore,
): Promise<{ turn: StoredTurn; duplicate: boolean }> {
  const result = await db.transaction().execute(async (trx) => {
    const userMessage = await trx
      .insertInto('conversation_messages')
      .values({
        chatbot_id: turn.chatbotId,
        channel: turn.channel,
        user_id: turn.userId,
        sender: 'user',
        username: turn.username,
        text: turn.userText,
        message_id: turn.messageId,
        reply_to: null,
        meta: null,
      })
      .onConflict((oc) =>
        oc
          .columns(['chatbot_id', 'channel', 'message_id'])
          .where('sender', '=', 'user')
          .where('message_id', 'is not', null)
          .doNothing(),
      )
      .returningAll()
      .executeTakeFirst();
    if (!userMessage) return null;
    const botMessage = await trx
      .insertInto('conversation_messages')
      .values({
        chatbot_id: turn.chatbotId,
        channel: turn.channel,
        user_id: turn.userId,
        sender: 'bot',
        username: turn.username,
        text: turn.botText,
        ai_response: true,
        message_id: null,
        reply_to: userMessage.id,
        meta: JSON.stringify(turn.meta),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('followers')
      .values({
        chatbot_id: turn.chatbotId,
        channel: turn.channel,
        external_id: turn.userId,
        username: turn.username,
      })
      .onConflict((oc) =>
        oc.columns(['chatbot_id', 'channel', 'external_id']).doUpdateSet({
          last_seen_at: sql`now()`,
          username: sql`coalesce(excluded.username, followers.username)`,
        }),
      )
      .execute();
    await trx
      .updateTable('chatbots')
      .set({ responses_count: sql`responses_count + 1` })
      .where('id', '=', turn.chatbotId)
      .execute();
    const payload = JSON.stringify({ chatbotId: turn.chatbotId, channel: turn.channel, userId: turn.userId });
    await sql`select pg_notify(${MESSAGES_CHANNEL}, ${payload})`.execute(trx);
    return { userMessage, botMessage };
  });
  if (result) return { turn: result, duplicate: false };
  const stored = await findTurn(db, turn);
  if (!stored) throw new Error(`turn ${turn.messageId} conflicted but is not stored`);
  return { turn: stored, duplicate: true };
}
