/**
 * The reservations plugin's own tables (docs/plugins.md; spec 001 §3 `reservation_config`,
 * `reservations_v1`), applied with its own migration table `charla_plugin_reservations_migrations`.
 *
 * No double booking is the database's job (issue 12 §8): every active reservation (a hold not yet
 * expired, or confirmed) takes one of the calendar's `max_simultaneous` places for its time range,
 * and an exclusion constraint (btree_gist, a contrib extension of PostgreSQL that PGlite ships)
 * forbids two active reservations of one bot on the same place with overlapping ranges. Booking
 * tries the free places in turn, so with max_simultaneous 3 exactly three of twenty racing
 * followers get the slot, whatever the isolation level or the number of processes.
 *
 * `202611270000_reservations_history` (issue 27 §6): a cancelled or moved booking keeps who did it
 * (`follower` or `owner`) and when, and a moved one its previous start, so the owner's viewer can
 * show it. Rows cancelled before it get `cancelled_at` = their last update, `cancelled_by` unknown.
 */
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '../../engine/store/sql-migration.ts';

export const migrations: Record<string, Migration> = {
  '202611250000_reservations': sqlMigration({
    up: [
      // Once per database, in `public` (the operator classes are found from any schema). Two
      // processes (or test files) migrating at once: the loser's duplicate is ignored.
      `DO $$ BEGIN
           CREATE EXTENSION IF NOT EXISTS btree_gist WITH SCHEMA public;
         EXCEPTION WHEN unique_violation OR duplicate_object THEN NULL;
         END $$`,
      `CREATE TABLE reservation_config (
          chatbot_id text PRIMARY KEY REFERENCES chatbots(id) ON DELETE CASCADE,
          config jsonb NOT NULL,
          updated_at timestamptz NOT NULL DEFAULT now()
        )`,
      `CREATE TABLE reservations_v1 (
          reservation_id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
          reservation_code text NOT NULL UNIQUE,
          chatbot_ref text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
          customer_name text,
          customer_contact text,
          customer_email text,
          reason text,
          service text NOT NULL,
          party_size integer CHECK (party_size > 0),
          reserved_date text NOT NULL,
          reserved_time text NOT NULL,
          slot_id text NOT NULL,
          starts_at timestamptz NOT NULL,
          ends_at timestamptz NOT NULL CHECK (ends_at > starts_at),
          place integer NOT NULL CHECK (place >= 1),
          status text NOT NULL CHECK (status IN ('hold', 'confirmed', 'cancelled', 'expired')),
          hold_expires_at timestamptz,
          is_paid boolean NOT NULL DEFAULT false,
          is_completed boolean NOT NULL DEFAULT false,
          source text NOT NULL CHECK (source IN ('chat', 'owner')),
          channel text,
          chat_id text,
          idempotency_key text UNIQUE,
          reminder_24h_sent_at timestamptz,
          reminder_2h_sent_at timestamptz,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now(),
          CONSTRAINT reservations_v1_no_double_booking EXCLUDE USING gist (
            chatbot_ref WITH =, place WITH =, tstzrange(starts_at, ends_at) WITH &&
          ) WHERE (status IN ('hold', 'confirmed'))
        )`,
      'CREATE INDEX reservations_v1_bot_start ON reservations_v1 (chatbot_ref, starts_at)',
      'CREATE INDEX reservations_v1_follower ON reservations_v1 (chatbot_ref, channel, chat_id)',
      `CREATE TABLE reservation_dialogues (
          chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
          channel text NOT NULL,
          chat_id text NOT NULL,
          state jsonb NOT NULL,
          updated_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (chatbot_id, channel, chat_id)
        )`,
    ],
    down: ['DROP TABLE reservation_dialogues', 'DROP TABLE reservations_v1', 'DROP TABLE reservation_config'],
  }),
  '202611270000_reservations_history': sqlMigration({
    up: [
      `ALTER TABLE reservations_v1
         ADD COLUMN cancelled_at timestamptz,
         ADD COLUMN cancelled_by text CHECK (cancelled_by IN ('follower', 'owner')),
         ADD COLUMN changed_at timestamptz,
         ADD COLUMN changed_by text CHECK (changed_by IN ('follower', 'owner')),
         ADD COLUMN changed_from timestamptz`,
      `UPDATE reservations_v1 SET cancelled_at = updated_at WHERE status = 'cancelled'`,
    ],
    down: [
      `ALTER TABLE reservations_v1 DROP COLUMN cancelled_at, DROP COLUMN cancelled_by,
         DROP COLUMN changed_at, DROP COLUMN changed_by, DROP COLUMN changed_from`,
    ],
  }),
  // Issue 28 §2: a web or IALanding visitor's e-mail given with consent (confirmation, reminders and
  // the owner's late replies by mail), and when they unsubscribed (no more mails for the booking).
  '202611280000_reservations_visitor_mail': sqlMigration({
    up: [
      `ALTER TABLE reservations_v1
         ADD COLUMN email_consent_at timestamptz,
         ADD COLUMN email_unsubscribed_at timestamptz`,
      // The last late-reply mail of each visitor's conversation (reply-mails.ts: one per 10 min).
      `CREATE TABLE reservation_reply_mails (
          chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
          channel text NOT NULL,
          chat_id text NOT NULL,
          mailed_at timestamptz NOT NULL,
          mailed_until timestamptz NOT NULL,
          PRIMARY KEY (chatbot_id, channel, chat_id)
        )`,
    ],
    down: [
      'DROP TABLE reservation_reply_mails',
      'ALTER TABLE reservations_v1 DROP COLUMN email_consent_at, DROP COLUMN email_unsubscribed_at',
    ],
  }),
};
