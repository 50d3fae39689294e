/**
 * Conversation states (issue 27 §4.4): open, needs a person, resolved. The owner sets one from the
 * screen (`POST /api/conversations/:chatbotId/status`, status-routes.ts); the hand-off detection
 * (another part of issue 27) calls {@link markNeedsPerson} when a follower asks for a human.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../engine/store/database.ts';
import type { ConversationStatus } from './api.ts';
import { type ConversationKey, conversationsDb, findState, saveState } from './queries.ts';

/** Sets a conversation's state (creating its row if needed). */
export async function setConversationStatus(
  db: Kysely<Database>,
  key: ConversationKey,
  status: ConversationStatus,
  now: Date,
): Promise<void> {
  await saveState(conversationsDb(db), key, { status }, now);
}

/** A conversation's state; 'open' when none was stored. */
export async function conversationStatus(
  db: Kysely<Database>,
  key: ConversationKey,
): Promise<ConversationStatus> {
  return (await findState(conversationsDb(db), key))?.status ?? 'open';
}

/**
 * Issue 27 §4.4: the follower needs a person (the hand-off detection found they asked for one).
 * Marks the conversation `needs_person`, so it shows first-hand on the owner's screen.
 * `db` is the engine's store (`ctx.db`); `key` the bot, channel and follower's chat id.
 */
export async function markNeedsPerson(db: Kysely<Database>, key: ConversationKey, now: Date): Promise<void> {
  await setConversationStatus(db, key, 'needs_person', now);
}
