/**
 * ialandings rows (spec 001 §3, §7): the slug rule and creating a bot's landing, which the web
 * adapter and `charla seed` share. The landing's public reads and the owner's update are the web
 * adapter's own (adapters/web/queries.ts).
 */
import type { Kysely } from 'kysely';
import { foldToAscii } from '../../matching/index.ts';
import type { Database, Ialanding } from '../database.ts';

/**
 * The IALanding slug of a business name (spec 001 §4): "ialanding-" followed by the lowercase
 * name with every character outside a-z0-9 replaced by a hyphen. Issue 10 §8: accents and ñ are
 * folded to ASCII first ("Cerámica Ana" → `ialanding-ceramica-ana`, "Niño" → `ialanding-nino`).
 */
export function ialandingSlug(businessName: string): string {
  return `ialanding-${foldToAscii(businessName).replace(/[^a-z0-9]/g, '-')}`;
}

/** The IALanding of a bot, or undefined. */
export async function findIalandingByChatbot(
  db: Kysely<Database>,
  chatbotId: string,
): Promise<Ialanding | undefined> {
  return db.selectFrom('ialandings').selectAll().where('chatbot_id', '=', chatbotId).executeTakeFirst();
}

/**
 * A slug for a bot's IALanding: the spec's rule, and when another bot's landing has it — live, or
 * as an old slug that still redirects to it (issue 24 §8: links shared before a rename keep
 * reaching that business, never a newcomer who takes the old name) — the same with `-2`, `-3`, …
 */
export async function freeIalandingSlug(
  db: Kysely<Database>,
  businessName: string,
  chatbotId: string,
): Promise<string> {
  const base = ialandingSlug(businessName);
  const live = await db
    .selectFrom('ialandings')
    .select(['slug', 'chatbot_id'])
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
    .execute();
  const reserved = await db
    .selectFrom('ialanding_slug_redirects as r')
    .innerJoin('ialandings as l', 'l.id', 'r.ialanding_id')
    .select(['r.old_slug as slug', 'l.chatbot_id'])
    .where((eb) => eb.or([eb('r.old_slug', '=', base), eb('r.old_slug', 'like', `${base}-%`)]))
    .execute();
  const others = new Set([...live, ...reserved].filter((r) => r.chatbot_id !== chatbotId).map((r) => r.slug));
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
  // freeIalandingSlug skips other landings' old slugs: they stay theirs (issue 24 §8).
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
