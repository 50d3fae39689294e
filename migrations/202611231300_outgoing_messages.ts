/**
 * Messages sent to a follower outside a turn (issue 12: plugins reach followers; issue 14: owner
 * replies and takeover): `sender` may now be `owner` (a hand-written message) besides the spec's
 * `user` and `bot`, and a follower's message may be stored without a reply (a silent turn keeps its
 * reason in `meta`).
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `ALTER TABLE conversation_messages DROP CONSTRAINT conversation_messages_sender_check;
ALTER TABLE conversation_messages ADD CONSTRAINT conversation_messages_sender_check CHECK (sender IN ('user', 'bot', 'owner'));`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `DELETE FROM conversation_messages WHERE sender = 'owner';
ALTER TABLE conversation_messages DROP CONSTRAINT conversation_messages_sender_check;
ALTER TABLE conversation_messages ADD CONSTRAINT conversation_messages_sender_check CHECK (sender IN ('user', 'bot'));`,
  );
}
