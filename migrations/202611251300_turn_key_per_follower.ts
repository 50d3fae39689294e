/**
 * A message id (the idempotency key of a turn) is unique per follower, not per bot and channel
 * (issue 24 §8): another visitor replaying a key someone else used must get a turn of their own, not
 * the first visitor's stored answer. Telegram's message ids are also only unique within one chat.
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `CREATE UNIQUE INDEX conversation_messages_follower_turn_key
      ON conversation_messages (chatbot_id, channel, user_id, message_id) WHERE sender = 'user' AND message_id IS NOT NULL;
    DROP INDEX conversation_messages_turn_key;`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `CREATE UNIQUE INDEX conversation_messages_turn_key
      ON conversation_messages (chatbot_id, channel, message_id) WHERE sender = 'user' AND message_id IS NOT NULL;
    DROP INDEX conversation_messages_follower_turn_key;`,
  );
}
