/**
 * WhatsApp message templates for the Cloud API (issue 28 §1): Meta only lets a business write first
 * to a follower outside the 24-hour customer service window with an approved template.
 *
 * - `whatsapp_templates`: one row per bot, Charla template (`charla_booking_reminder_24h`, …) and
 *   language (`es`, `en`, …): the id Meta gave it, its status as Meta names it (`PENDING`,
 *   `APPROVED`, `REJECTED`, `PAUSED`, `DISABLED`, …) and Meta's reason for a rejection. Written on
 *   submission, by the `message_template_status_update` webhook and by the periodic check.
 * - `whatsapp_waiting`: messages that could not go out free-form because the window was closed:
 *   an owner's late reply held until the follower writes again (`held`: the "team has answered"
 *   template went out), or a message waiting because no approved template exists (`waiting`, with
 *   the reason the owner sees); `delivered` once sent, `expired` when it was no longer worth sending.
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE whatsapp_templates (
      chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
      name text NOT NULL,
      language text NOT NULL,
      meta_id text,
      status text NOT NULL,
      reason text,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (chatbot_id, name, language)
    );
    CREATE TABLE whatsapp_waiting (
      id bigserial PRIMARY KEY,
      chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
      chat_id text NOT NULL,
      sender text NOT NULL CHECK (sender IN ('bot', 'owner')),
      state text NOT NULL CHECK (state IN ('held', 'waiting', 'delivered', 'expired')),
      template text,
      message jsonb NOT NULL,
      reason text,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      delivered_at timestamptz
    );
    CREATE INDEX whatsapp_waiting_open ON whatsapp_waiting (chatbot_id, chat_id, id)
      WHERE state IN ('held', 'waiting');
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    DROP TABLE whatsapp_waiting;
    DROP TABLE whatsapp_templates;
    `,
  );
}
