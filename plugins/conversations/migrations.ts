/**
 * The conversations plugin's own tables (docs/plugins.md): per follower conversation, whether the
 * owner has taken it over (the bot stays silent until `paused_until`) and what the owner has read;
 * the owner's own Telegram chat linked to the bot (a one-time code, stored hashed, until linked);
 * which follower each message forwarded to that chat came from (so a reply finds them); the
 * follower's name; and the files the owner sent a web visitor (issue 27).
 */
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '../../engine/store/sql-migration.ts';

export const migrations: Record<string, Migration> = {
  '202611260000_conversation_state': sqlMigration({
    up: [
      `CREATE TABLE conversation_state (
          chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
          channel text NOT NULL,
          chat_id text NOT NULL,
          paused_until timestamptz,
          quiet_minutes integer NOT NULL DEFAULT 30 CHECK (quiet_minutes BETWEEN 1 AND 10080),
          last_read_id bigint NOT NULL DEFAULT 0,
          updated_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (chatbot_id, channel, chat_id)
        )`,
    ],
    down: ['DROP TABLE conversation_state'],
  }),
  '202611270000_owner_phone': sqlMigration({
    up: [
      `CREATE TABLE conversation_owner_phones (
          chatbot_id text PRIMARY KEY REFERENCES chatbots(id) ON DELETE CASCADE,
          channel text,
          chat_id text,
          code_hash text,
          code_expires_at timestamptz,
          linked_at timestamptz
        )`,
      `CREATE TABLE conversation_forwards (
          chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
          message_id text NOT NULL,
          channel text NOT NULL,
          user_id text NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (chatbot_id, message_id)
        )`,
      'CREATE INDEX conversation_forwards_age ON conversation_forwards (created_at)',
    ],
    down: ['DROP TABLE conversation_forwards', 'DROP TABLE conversation_owner_phones'],
  }),
  // Issue 27 §4.4: open / needs a person / resolved, set by the owner or the hand-off detection.
  '202611280000_conversation_status': sqlMigration({
    up: [
      `ALTER TABLE conversation_state ADD COLUMN status text NOT NULL DEFAULT 'open'
          CHECK (status IN ('open', 'needs_person', 'resolved'))`,
    ],
    down: ['ALTER TABLE conversation_state DROP COLUMN status'],
  }),
  // Issue 27 §4.2: the follower's name as the channel knows it (Telegram first name and @username,
  // WhatsApp profile name and number) and the name given in a booking; issue 27 §3: the files the
  // owner sent a web visitor (a voice note), kept in the file storage under `storage_key`.
  '202611290000_names_and_owner_files': sqlMigration({
    up: [
      'ALTER TABLE conversation_state ADD COLUMN display_name text',
      'ALTER TABLE conversation_state ADD COLUMN handle text',
      'ALTER TABLE conversation_state ADD COLUMN booking_name text',
      `CREATE TABLE conversation_owner_files (
          id text PRIMARY KEY,
          chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
          channel text NOT NULL,
          chat_id text NOT NULL,
          storage_key text NOT NULL UNIQUE,
          name text NOT NULL,
          mime text NOT NULL,
          size_bytes integer NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now()
        )`,
      'CREATE INDEX conversation_owner_files_chat ON conversation_owner_files (chatbot_id, channel, chat_id)',
    ],
    down: [
      'DROP TABLE conversation_owner_files',
      'ALTER TABLE conversation_state DROP COLUMN booking_name',
      'ALTER TABLE conversation_state DROP COLUMN handle',
      'ALTER TABLE conversation_state DROP COLUMN display_name',
    ],
  }),
};
