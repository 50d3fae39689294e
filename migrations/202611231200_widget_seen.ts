/**
 * Where the web widget last loaded (issue 10, the owner's first steps): `widget_origin` is the
 * origin of the last website that fetched the bot's widget configuration from another origin than
 * Charla's own, `widget_seen_at` when. /main's checklist ticks "put the widget on your site" from
 * them and names the site.
 */
import type { Kysely } from 'kysely';
import { runScript } from './sql.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `ALTER TABLE chatbots ADD COLUMN widget_origin text;
    ALTER TABLE chatbots ADD COLUMN widget_seen_at timestamptz;`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `ALTER TABLE chatbots DROP COLUMN widget_seen_at;
    ALTER TABLE chatbots DROP COLUMN widget_origin;`,
  );
}
