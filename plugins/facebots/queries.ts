/**
 * The Facebots directory's SQL: reads of the engine's `chatbots` and `ialandings` (the directory is
 * about them) and its own `facebots_likes`.
 */
import { type ColumnType, type Kysely, sql } from 'kysely';
import type { Database } from '../../engine/store/database.ts';
import { botSlug, PAGE_SIZE, type Sort } from './api.ts';

interface LikesTable {
  chatbot_id: string;
  visitor_id: string;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}
export type FacebotsDb = Kysely<Database & { facebots_likes: LikesTable }>;

export function facebotsDb(db: Kysely<Database>): FacebotsDb {
  return db.withTables<{ facebots_likes: LikesTable }>();
}

/**
 * Spec 001 §5 directory visibility, widened to every live channel (issue 16 §4): `is_public`, published
 * by its owner (issue 29, `published_at`), and a
 * connected Telegram bot (token and username) or an active IALanding with the web service on.
 */
function visible(db: FacebotsDb) {
  return db
    .selectFrom('chatbots as c')
    .leftJoin('ialandings as l', (j) => j.onRef('l.chatbot_id', '=', 'c.id').on('l.is_active', '=', true))
    .where('c.is_public', '=', true)
    .where('c.published_at', 'is not', null)
    .where((eb) =>
      eb.or([
        eb.and([eb('c.telegram_token', 'is not', null), eb('c.telegram_username', 'is not', null)]),
        eb.and([eb('l.slug', 'is not', null), eb('c.web_enabled', '=', true)]),
      ]),
    );
}

/** The listed bots with what a card shows. */
function directoryRows(db: FacebotsDb) {
  return visible(db).select([
    'c.id',
    'c.business_name',
    'c.category',
    'c.public_description',
    'c.business_description',
    'c.telegram_username',
    'c.idioma',
    'c.responses_count',
    'c.likes_count',
    'c.created_at',
    'l.slug as ialanding_slug',
  ]);
}

/** A listed bot's row, as {@link listDirectory} gives it. */
export type DirectoryRow = Awaited<ReturnType<typeof listDirectory>>['rows'][number];

/**
 * The listed bot whose name gives this slug (`/facebots/{slug}`, {@link botSlug}), the most
 * popular when two names give the same slug; undefined when none does.
 */
export async function findListedBySlug(db: FacebotsDb, slug: string): Promise<DirectoryRow | undefined> {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug) || slug.length > 120) return undefined;
  // Names are matched loosely in SQL (each dash any run of characters, each letter an accented
  // form could fold to any one character), then exactly here.
  const pattern = `%${slug
    .replace(/[aeioucny]/g, '_')
    .split('-')
    .join('%')}%`;
  const rows = await directoryRows(db)
    .where(sql<boolean>`lower(c.business_name) like ${pattern}`)
    .orderBy('c.responses_count', 'desc')
    .orderBy('c.id')
    .limit(50)
    .execute();
  return rows.find((r) => botSlug(r.business_name) === slug);
}

/**
 * One page of the directory.
 * Orders (spec 001 §7): populares = responses, then likes; recientes / antiguos = creation date;
 * relevantes = likes, then responses (what visitors liked first).
 */
export async function listDirectory(
  db: FacebotsDb,
  q: { sort: Sort; category?: string | undefined; page: number },
) {
  let query = directoryRows(db);
  if (q.category) query = query.where('c.category', '=', q.category as never);
  const ordered =
    q.sort === 'populares'
      ? query.orderBy('c.responses_count', 'desc').orderBy('c.likes_count', 'desc')
      : q.sort === 'recientes'
        ? query.orderBy('c.created_at', 'desc')
        : q.sort === 'antiguos'
          ? query.orderBy('c.created_at', 'asc')
          : query.orderBy('c.likes_count', 'desc').orderBy('c.responses_count', 'desc');
  const rows = await ordered
    .orderBy('c.id')
    .limit(PAGE_SIZE + 1)
    .offset((q.page - 1) * PAGE_SIZE)
    .execute();
  return { rows: rows.slice(0, PAGE_SIZE), more: rows.length > PAGE_SIZE };
}

/** True when the bot is listed in the directory. */
export async function isListed(db: FacebotsDb, chatbotId: string): Promise<boolean> {
  return Boolean(await visible(db).select('c.id').where('c.id', '=', chatbotId).executeTakeFirst());
}

/**
 * Records a visitor's like of a bot once, adding it to `likes_count` in the same transaction.
 * @returns the bot's likes after it and whether this like counted (false when already given).
 */
export async function like(
  db: FacebotsDb,
  chatbotId: string,
  visitorId: string,
): Promise<{ likes: number; counted: boolean }> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('facebots_likes')
      .values({ chatbot_id: chatbotId, visitor_id: visitorId })
      .onConflict((oc) => oc.columns(['chatbot_id', 'visitor_id']).doNothing())
      .returning('chatbot_id')
      .executeTakeFirst();
    const row = inserted
      ? await trx
          .updateTable('chatbots')
          .set({ likes_count: sql`likes_count + 1` })
          .where('id', '=', chatbotId)
          .returning('likes_count')
          .executeTakeFirstOrThrow()
      : await trx
          .selectFrom('chatbots')
          .select('likes_count')
          .where('id', '=', chatbotId)
          .executeTakeFirstOrThrow();
    return { likes: Number(row.likes_count), counted: Boolean(inserted) };
  });
}
