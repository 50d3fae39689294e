/**
 * The notifications plugin's tables (issue 27 §1, §2): each owner's choices, the events waiting to
 * be mailed (one row per event, unique by what it is about, so a replayed turn records it once),
 * and the conversations where a follower asked for a person.
 */
import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/** The plugin's migrations (applied after Charla's own, registry `migrations`). */
export const migrations: Record<string, Migration> = {
  '202611270900_notifications': {
    async up(db: Kysely<unknown>) {
      await sql`CREATE TABLE notification_settings (
        owner_id text PRIMARY KEY REFERENCES owners(id) ON DELETE CASCADE,
        language text NOT NULL DEFAULT 'es',
        disabled jsonb NOT NULL DEFAULT '[]'::jsonb,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`.execute(db);
      await sql`CREATE TABLE notification_events (
        id bigserial PRIMARY KEY,
        owner_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
        chatbot_id text REFERENCES chatbots(id) ON DELETE CASCADE,
        kind text NOT NULL,
        grp text NOT NULL,
        dedupe text NOT NULL UNIQUE,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        claimed_by text,
        claimed_at timestamptz,
        mailed_at timestamptz
      )`.execute(db);
      await sql`CREATE INDEX notification_events_pending ON notification_events (grp, created_at)
        WHERE mailed_at IS NULL`.execute(db);
      await sql`CREATE INDEX notification_events_mailed ON notification_events (grp, mailed_at DESC)
        WHERE mailed_at IS NOT NULL`.execute(db);
      await sql`CREATE TABLE notification_handoffs (
        chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
        channel text NOT NULL,
        user_id text NOT NULL,
        requested_at timestamptz NOT NULL,
        PRIMARY KEY (chatbot_id, channel, user_id)
      )`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`DROP TABLE notification_handoffs`.execute(db);
      await sql`DROP TABLE notification_events`.execute(db);
      await sql`DROP TABLE notification_settings`.execute(db);
    },
  },
};
