/**
 * The web adapter's IALanding queries (spec 001 §7, issue 10 §8, issue 24 §8): the public page by
 * slug or key, old slugs' redirects, and the owner's update. Creating a landing and its slug rule
 * are shared with `charla seed` (engine/store/queries/ialandings.ts).
 */
import type { Kysely } from 'kysely';
import { languageCode } from '../../engine/schemas.ts';
import type { Chatbot, Database, Ialanding } from '../../engine/store/database.ts';
import { WIDGET_TEXTS } from './texts.ts';

/** The active IALanding whose `column` is `value`, or undefined (spec 001 §7: with is_active). */
function findActiveIalanding(
  db: Kysely<Database>,
  column: 'slug' | 'charla_key',
  value: string,
): Promise<Ialanding | undefined> {
  return db
    .selectFrom('ialandings')
    .selectAll()
    .where(column, '=', value)
    .where('is_active', '=', true)
    .executeTakeFirst();
}

/** The active IALanding with a slug, or undefined (spec 001 §7: by slug with is_active). */
export function findActiveIalandingBySlug(
  db: Kysely<Database>,
  slug: string,
): Promise<Ialanding | undefined> {
  return findActiveIalanding(db, 'slug', slug);
}

/** The active IALanding with a key, or undefined (spec 001 §7: by key with is_active). */
export function findActiveIalandingByKey(db: Kysely<Database>, key: string): Promise<Ialanding | undefined> {
  return findActiveIalanding(db, 'charla_key', key);
}

/**
 * Updates an IALanding's slug, business name and key (spec 001 §7: update slug and business_name).
 * Issue 10 §8: when the slug changes, the old one is kept as a redirect to this landing. Going back
 * to one of its own old slugs makes it live again; another landing's old slug is never taken
 * (issue 24 §8; `freeIalandingSlug`, engine/store/queries/ialandings.ts, does not offer it).
 */
export async function updateIalanding(
  db: Kysely<Database>,
  id: string,
  values: { slug: string; business_name: string; charla_key: string | null },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('ialandings').select('slug').where('id', '=', id).executeTakeFirst();
    await trx
      .deleteFrom('ialanding_slug_redirects')
      .where('old_slug', '=', values.slug)
      .where('ialanding_id', '=', id)
      .execute();
    await trx.updateTable('ialandings').set(values).where('id', '=', id).execute();
    if (before && before.slug !== values.slug)
      await trx
        .insertInto('ialanding_slug_redirects')
        .values({ old_slug: before.slug, ialanding_id: id })
        .onConflict((oc) => oc.column('old_slug').doUpdateSet({ ialanding_id: id }))
        .execute();
  });
}

/**
 * The current slug of the active IALanding an old slug redirects to (issue 10 §8), or undefined
 * when the slug was never another landing's, or that landing is inactive or gone.
 */
export async function findIalandingRedirect(
  db: Kysely<Database>,
  oldSlug: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('ialanding_slug_redirects as r')
    .innerJoin('ialandings as l', 'l.id', 'r.ialanding_id')
    .select('l.slug')
    .where('r.old_slug', '=', oldSlug)
    .where('l.is_active', '=', true)
    .executeTakeFirst();
  return row?.slug;
}

/**
 * Who a web visitor sees answering when the owner writes (issue 27 §3): the owner's name from their
 * profile (`user_profiles.full_name`) when they set one, else "Equipo de <business name>" in the
 * bot's language (`WIDGET_TEXTS[lang].team`).
 */
export async function personLabel(
  db: Kysely<Database>,
  bot: Pick<Chatbot, 'user_id' | 'business_name' | 'idioma'>,
): Promise<string> {
  const profile = await db
    .selectFrom('user_profiles')
    .select('full_name')
    .where('user_id', '=', bot.user_id)
    .executeTakeFirst();
  const name = profile?.full_name?.trim();
  return name || WIDGET_TEXTS[languageCode(bot.idioma)].team.replace('{business}', bot.business_name);
}
