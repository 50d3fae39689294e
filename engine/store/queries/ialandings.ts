/** ialandings rows (spec 001 §3, §7). */
import type { Kysely } from 'kysely';
import type { Database, Ialanding } from '../database.ts';

/**
 * The IALanding slug of a business name (spec 001 §4): "ialanding-" followed by the lowercase
 * name with every character outside a-z0-9 replaced by a hyphen.
 */
export function ialandingSlug(businessName: string): string {
  return `ialanding-${businessName.toLowerCase().replace(/[^a-z0-9]/g, '-')}`;
}

/** The IALanding of a bot, or undefined. */
export async function findIalandingByChatbot(
  db: Kysely<Database>,
  chatbotId: string,
): Promise<Ialanding | undefined> {
  return db.selectFrom('ialandings').selectAll().where('chatbot_id', '=', chatbotId).executeTakeFirst();
}

/** Creates the IALanding of a bot when it has none; returns the existing or new row. */
export async function ensureIalanding(
  db: Kysely<Database>,
  bot: { id: string; user_id: string; business_name: string; charla_key: string | null },
): Promise<Ialanding> {
  const existing = await findIalandingByChatbot(db, bot.id);
  if (existing) return existing;
  return db
    .insertInto('ialandings')
    .values({
      user_id: bot.user_id,
      chatbot_id: bot.id,
      business_name: bot.business_name,
      charla_key: bot.charla_key,
      slug: ialandingSlug(bot.business_name),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
