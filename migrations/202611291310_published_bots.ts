/**
 * Issue 29 §"Setting up the bot": a bot is private until its owner publishes it in Facebots.
 * `published_at` is when the owner did (null: not published); the directory, the site's bot pages
 * and the sitemap list only published bots, and an unpublished bot's IALanding carries `noindex`.
 * Bots the directory listed when this ran (public, with a connected Telegram bot or an active
 * IALanding with the web service on) are published now, so no owner finds their bot gone; other
 * bots, and every new one, start unpublished.
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `ALTER TABLE chatbots ADD COLUMN published_at timestamptz;
     UPDATE chatbots c SET published_at = now() WHERE c.is_public AND (
       (c.telegram_token IS NOT NULL AND c.telegram_username IS NOT NULL)
       OR (c.web_enabled AND EXISTS (SELECT 1 FROM ialandings l WHERE l.chatbot_id = c.id AND l.is_active))
     );`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'ALTER TABLE chatbots DROP COLUMN published_at;');
}
