/**
 * The WhatsApp channel's tables (issue 13). They are core tables, created here like every other,
 * but only adapters/whatsapp reads and writes them (its queries.ts declares their types), so the
 * engine names no channel. The spec's fields stay on `chatbots` (000 §3: phone_number,
 * meta_verified, meta_business_account_id, meta_token, whatsapp_number).
 *
 * - `whatsapp_connections`: one row per bot with WhatsApp: which backend (`baileys`, a linked
 *   device; `cloud`, Meta's Cloud API), its state, the live QR or pairing code while linking, the
 *   last error (so every process shows the same health), and the lease that lets one process
 *   at a time hold a linked device's socket (`holder`, `lease_until`).
 * - `whatsapp_auth`: a linked device's auth state (Baileys creds and every signal key type), one
 *   row per (category, id), each value sealed with AES-256-GCM; written in transactions.
 * - `whatsapp_messages`: messages the bot sent (their delivery status from Cloud API webhooks,
 *   their content for Baileys' `getMessage` retries) and media followers sent on a linked device
 *   (the reference needed to download it later).
 * - `whatsapp_contacts`: followers as WhatsApp knows them: their id (LID or phone JID, or the Cloud
 *   API's wa_id), the phone number when known, and their last message (the 24-hour window).
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE whatsapp_connections (
      chatbot_id text PRIMARY KEY REFERENCES chatbots(id) ON DELETE CASCADE,
      backend text NOT NULL CHECK (backend IN ('baileys', 'cloud')),
      status text NOT NULL CHECK (status IN ('linking', 'linked', 'expired', 'logged_out', 'active')),
      phone_number_id text UNIQUE,
      app_secret text,
      qr text,
      qr_expires_at timestamptz,
      pairing_code text,
      last_error text,
      last_error_at timestamptz,
      last_update_at timestamptz,
      holder text,
      lease_until timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE whatsapp_auth (
      chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
      category text NOT NULL,
      key_id text NOT NULL,
      value text NOT NULL,
      PRIMARY KEY (chatbot_id, category, key_id)
    );

    CREATE TABLE whatsapp_messages (
      chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
      message_id text NOT NULL,
      direction text NOT NULL CHECK (direction IN ('in', 'out')),
      chat_id text NOT NULL,
      status text,
      status_rank integer NOT NULL DEFAULT 0,
      status_at timestamptz,
      error_code integer,
      error_title text,
      content text,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (chatbot_id, message_id)
    );
    CREATE INDEX whatsapp_messages_created ON whatsapp_messages (created_at);

    CREATE TABLE whatsapp_contacts (
      chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
      wa_id text NOT NULL,
      phone_number text,
      push_name text,
      last_inbound_at timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (chatbot_id, wa_id)
    );
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    DROP TABLE whatsapp_contacts;
    DROP TABLE whatsapp_messages;
    DROP TABLE whatsapp_auth;
    DROP TABLE whatsapp_connections;
    `,
  );
}
