/**
 * The broadcasts plugin's tables: one row per broadcast and one per recipient (the durable record
 * that lets a broadcast resume after a crash without sending anyone the same message twice, with
 * its audience and, for one counted but not sent to, why: issue 27 §5), and the followers who
 * blocked the bot (left out of later broadcasts).
 */
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '../../engine/store/sql-migration.ts';

export const migrations: Record<string, Migration> = {
  '202611260100_broadcasts': sqlMigration({
    up: [
      `CREATE TABLE broadcasts (
          id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
          chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
          text text NOT NULL DEFAULT '',
          file_id text,
          voice bytea,
          preset text,
          status text NOT NULL CHECK (status IN ('sending', 'done')),
          total integer NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          finished_at timestamptz
        )`,
      'CREATE INDEX broadcasts_bot ON broadcasts (chatbot_id, created_at)',
      `CREATE TABLE broadcast_recipients (
          broadcast_id text NOT NULL REFERENCES broadcasts(id) ON DELETE CASCADE,
          channel text NOT NULL,
          chat_id text NOT NULL,
          status text NOT NULL CHECK (status IN ('pending', 'sending', 'sent', 'blocked', 'failed', 'unknown')),
          error text,
          sent_at timestamptz,
          PRIMARY KEY (broadcast_id, channel, chat_id)
        )`,
      'CREATE INDEX broadcast_recipients_pending ON broadcast_recipients (broadcast_id, status)',
      `CREATE TABLE broadcast_blocked (
          chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
          channel text NOT NULL,
          chat_id text NOT NULL,
          blocked_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (chatbot_id, channel, chat_id)
        )`,
    ],
    down: ['DROP TABLE broadcast_blocked', 'DROP TABLE broadcast_recipients', 'DROP TABLE broadcasts'],
  }),
  // Issue 27 §5: each recipient's audience (telegram, whatsapp, web, whatsappCloud) for the
  // per-channel counts, and `skipped` recipients (counted, not sent to; `error` says why).
  '202611271500_broadcast_audiences': sqlMigration({
    up: [
      'ALTER TABLE broadcast_recipients ADD COLUMN audience text',
      'ALTER TABLE broadcast_recipients DROP CONSTRAINT broadcast_recipients_status_check',
      `ALTER TABLE broadcast_recipients ADD CONSTRAINT broadcast_recipients_status_check
          CHECK (status IN ('pending', 'sending', 'sent', 'blocked', 'failed', 'unknown', 'skipped'))`,
    ],
    down: [
      "DELETE FROM broadcast_recipients WHERE status = 'skipped'",
      'ALTER TABLE broadcast_recipients DROP CONSTRAINT broadcast_recipients_status_check',
      `ALTER TABLE broadcast_recipients ADD CONSTRAINT broadcast_recipients_status_check
          CHECK (status IN ('pending', 'sending', 'sent', 'blocked', 'failed', 'unknown'))`,
      'ALTER TABLE broadcast_recipients DROP COLUMN audience',
    ],
  }),
  // Issue 28 §1: followers who wrote STOP / BAJA (optout.ts) are left out of every broadcast
  // until they write ALTA / START.
  '202611271700_broadcast_optouts': sqlMigration({
    up: [
      `CREATE TABLE broadcast_optouts (
          chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
          channel text NOT NULL,
          chat_id text NOT NULL,
          opted_out_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (chatbot_id, channel, chat_id)
        )`,
    ],
    down: ['DROP TABLE broadcast_optouts'],
  }),
};
