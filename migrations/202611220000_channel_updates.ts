/**
 * Channel connections and their durable inbox (issue 5).
 *
 * - `channel_updates`: every update a channel delivers (a Telegram update, later a WhatsApp
 *   message) is stored here before it is acknowledged, keyed by the channel's own id so a
 *   redelivery is one row, and handled from here: a crash between storing and answering leaves a
 *   `pending` row that the next start answers.
 * - `chatbots.telegram_bot_id`: the Telegram bot's numeric id from `getMe`, so a process starts a
 *   bot without asking Telegram who it is, and update keys of two different bots never collide.
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    ALTER TABLE chatbots ADD COLUMN telegram_bot_id text;

    CREATE TABLE channel_updates (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      channel text NOT NULL,
      chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
      update_key text NOT NULL,
      chat_id text NOT NULL,
      payload jsonb NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed')),
      attempts integer NOT NULL DEFAULT 0,
      last_error text,
      received_at timestamptz NOT NULL DEFAULT now(),
      handled_at timestamptz,
      UNIQUE (channel, chatbot_id, update_key)
    );
    CREATE INDEX channel_updates_open ON channel_updates (channel, id) WHERE status = 'pending';
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    DROP TABLE channel_updates;
    ALTER TABLE chatbots DROP COLUMN telegram_bot_id;
    `,
  );
}
