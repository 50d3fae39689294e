/**
 * Sends handed to the node that holds a bot's channel connection (issue 26 §2,
 * engine/channels/handoff.ts): a WhatsApp linked device is one socket held by one node, and a send
 * asked of another node is stored here, claimed by the holder, sent, and its outcome recorded.
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `CREATE TABLE channel_handoffs (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      channel text NOT NULL,
      chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
      chat_id text NOT NULL,
      message jsonb NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
      receipt jsonb,
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      done_at timestamptz
    );
    CREATE INDEX channel_handoffs_pending ON channel_handoffs (channel, chatbot_id, id) WHERE status = 'pending';`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'DROP TABLE channel_handoffs;');
}
