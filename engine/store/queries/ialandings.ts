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

/**
 * A slug for a bot's IALanding: the spec's rule, and when another bot's landing already has it
 * (two businesses with one name), the same with `-2`, `-3`, … (slugs are unique).
 */
export async function freeIalandingSlug(
  db: Kysely<Database>,
  businessName: string,
  chatbotId: string,
): Promise<string> {
  const base = ialandingSlug(businessName);
  const taken = await db
    .selectFrom('ialandings')
    .select(['slug', 'chatbot_id'])
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
    .execute();
  const others = new Set(taken.filter((r) => r.chatbot_id !== chatbotId).map((r) => r.slug));
  if (!others.has(base)) return base;
  for (let n = 2; ; n++) if (!others.has(`${base}-${n}`)) return `${base}-${n}`;
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
      slug: await freeIalandingSlug(db, bot.business_name, bot.id),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The active IALanding with a slug, or undefined (spec 001 §7: by slug with is_active). */
export async function findActiveIalandingBySlug(
  db: Kysely<Database>,
  slug: string,
): Promise<Ialanding | undefined> {
  return db
    .selectFrom('ialandings')
    .selectAll()
    .where('slug', '=', slug)
    .where('is_active', '=', true)
    .executeTakeFirst();
}

/** The active IALanding with a key, or undefined (spec 001 §7: by key with is_active). */
export async function findActiveIalandingByKey(
  db: Kysely<Database>,
  key: string,
): Promise<Ialanding | undefined> {
  return db
    .selectFrom('ialandings')
    .selectAll()
    .where('charla_key', '=', key)
    .where('is_active', '=', true)
    .executeTakeFirst();
}

/** Updates an IALanding's slug, business name and key (spec 001 §7: update slug and business_name). */
export async function updateIalanding(
  db: Kysely<Database>,
  id: string,
  values: { slug: string; business_name: string; charla_key: string | null },
): Promise<void> {
  await db.updateTable('ialandings').set(values).where('id', '=', id).execute();
}
