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
  /**
   * Issue 27 §1 routes: each kind on or off per route (email, telegram, push, page) in `routes_off`
   * (`{ kind: [route, …] }`, what is absent is on). A kind the owner had turned off (`disabled`, when
   * e-mail was the only route) keeps saying "not this kind": every route off. Events get
   * `routed_at` (their non-mail routes were queued); the browsers' Web Push subscriptions get a
   * table (endpoint and keys sealed with engine/secrets.ts, found by the endpoint's SHA-256). The
   * plugin's own "needs a person" table goes: the conversations plugin's state is the one kept.
   */
  '202611271600_notification_routes': {
    async up(db: Kysely<unknown>) {
      await sql`ALTER TABLE notification_settings ADD COLUMN routes_off jsonb NOT NULL DEFAULT '{}'::jsonb`.execute(
        db,
      );
      await sql`UPDATE notification_settings SET routes_off = COALESCE(
          (SELECT jsonb_object_agg(k, '["email","telegram","push","page"]'::jsonb)
             FROM jsonb_array_elements_text(disabled) AS k),
          '{}'::jsonb)`.execute(db);
      await sql`ALTER TABLE notification_settings DROP COLUMN disabled`.execute(db);
      await sql`ALTER TABLE notification_events ADD COLUMN routed_at timestamptz`.execute(db);
      // Events recorded before routes existed were e-mail only: nothing left to route.
      await sql`UPDATE notification_events SET routed_at = created_at`.execute(db);
      await sql`CREATE INDEX notification_events_unrouted ON notification_events (created_at)
        WHERE routed_at IS NULL`.execute(db);
      await sql`CREATE TABLE notification_push_subscriptions (
        endpoint_hash text PRIMARY KEY,
        owner_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
        endpoint_sealed text NOT NULL,
        keys_sealed text NOT NULL,
        created_at timestamptz NOT NULL
      )`.execute(db);
      await sql`CREATE INDEX notification_push_owner ON notification_push_subscriptions (owner_id)`.execute(
        db,
      );
      await sql`DROP TABLE notification_handoffs`.execute(db);
      // "A channel is down" once per transition (channel-down.ts): whether each connection is down.
      await sql`CREATE TABLE notification_channel_state (
        chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
        channel text NOT NULL,
        down boolean NOT NULL,
        since timestamptz NOT NULL,
        PRIMARY KEY (chatbot_id, channel)
      )`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`DROP TABLE notification_channel_state`.execute(db);
      await sql`CREATE TABLE notification_handoffs (
        chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
        channel text NOT NULL,
        user_id text NOT NULL,
        requested_at timestamptz NOT NULL,
        PRIMARY KEY (chatbot_id, channel, user_id)
      )`.execute(db);
      await sql`DROP TABLE notification_push_subscriptions`.execute(db);
      await sql`DROP INDEX notification_events_unrouted`.execute(db);
      await sql`ALTER TABLE notification_events DROP COLUMN routed_at`.execute(db);
      await sql`ALTER TABLE notification_settings ADD COLUMN disabled jsonb NOT NULL DEFAULT '[]'::jsonb`.execute(
        db,
      );
      // A kind whose e-mail was off is "disabled" again.
      await sql`UPDATE notification_settings SET disabled = COALESCE(
          (SELECT jsonb_agg(k) FROM jsonb_each(routes_off) AS e(k, v) WHERE v ? 'email'),
          '[]'::jsonb)`.execute(db);
      await sql`ALTER TABLE notification_settings DROP COLUMN routes_off`.execute(db);
    },
  },
};
