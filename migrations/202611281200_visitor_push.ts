/**
 * Web Push to IALanding visitors (issue 28 §2, "browser web push … as a second route where
 * configured"): one row per browser subscription of a visitor of a bot, stored sealed (the
 * endpoint is a capability URL, the keys decrypt what is sent to it: engine/secrets.ts) and found
 * by the endpoint's SHA-256 (hex). A subscription moves to whoever saves it last; the bot's
 * deletion removes its visitors' subscriptions. Written by adapters/web/visitor-push.ts.
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `CREATE TABLE web_visitor_push_subscriptions (
      endpoint_hash text PRIMARY KEY,
      chatbot_id text NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
      visitor_id text NOT NULL,
      endpoint_sealed text NOT NULL,
      keys_sealed text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX web_visitor_push_subscriptions_visitor ON web_visitor_push_subscriptions (chatbot_id, visitor_id);`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'DROP TABLE web_visitor_push_subscriptions;');
}
