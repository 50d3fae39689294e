/**
 * Keys that rows are found by in several tables: one follower's conversation in the tables that
 * keep something per conversation (`chatbot_id`, `channel`, `chat_id`: the plugins' conversation
 * state, reservation dialogues, broadcast blocks), and one owner's row (`id`, `user_id`: bots, files).
 */
import { type ExpressionBuilder, sql } from 'kysely';

/** One conversation: a follower (`chatId`) of a bot on a channel. */
export interface ChatKey {
  chatbotId: string;
  channel: string;
  chatId: string;
}

/** The filter on one conversation's row of a table keyed by conversation (`.where(ofChat(key))`). */
export function ofChat(key: ChatKey) {
  return <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>) =>
    eb.and([
      eb(sql.ref<string>('chatbot_id'), '=', key.chatbotId),
      eb(sql.ref<string>('channel'), '=', key.channel),
      eb(sql.ref<string>('chat_id'), '=', key.chatId),
    ]);
}

/** The key's columns, for a row inserted into a table keyed by conversation. */
export function chatColumns(key: ChatKey): { chatbot_id: string; channel: string; chat_id: string } {
  return { chatbot_id: key.chatbotId, channel: key.channel, chat_id: key.chatId };
}

/** The key columns of a table keyed by conversation (`onConflict((oc) => oc.columns(CHAT_KEY))`). */
export const CHAT_KEY = ['chatbot_id', 'channel', 'chat_id'] as const;

/**
 * The filter on the row `id` when it is the owner's (`user_id`), so other owners' ids are neither
 * found nor confirmed (`.where(ownedRow(userId, id))`).
 */
export function ownedRow(userId: string, id: string) {
  return <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>) =>
    eb.and([eb(sql.ref<string>('id'), '=', id), eb(sql.ref<string>('user_id'), '=', userId)]);
}
