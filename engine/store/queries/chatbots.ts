/** Chatbot rows (spec 000 §3, §7 data service: select by user newest first, by id; insert; update). */
import type { Kysely } from 'kysely';
import type { Chatbot, ChatbotUpdate, Database, NewChatbot } from '../database.ts';
import { ownedRow } from './keys.ts';

/** A bot by id, or undefined. */
export async function findChatbot(db: Kysely<Database>, id: string): Promise<Chatbot | undefined> {
  return db.selectFrom('chatbots').selectAll().where('id', '=', id).executeTakeFirst();
}

/** An owner's plan and expiry (spec 001 §3), as engine/auth/profiles.ts `isPaid` reads them. */
export interface OwnerPlan {
  plan: string | null;
  expires_at: Date | string | null;
}

/**
 * A bot and its owner's plan in one query (the turn's bot cache: whether the bot may answer is
 * known without another query), or undefined.
 */
export async function findChatbotWithPlan(
  db: Kysely<Database>,
  id: string,
): Promise<{ bot: Chatbot; owner: OwnerPlan } | undefined> {
  const row = await db
    .selectFrom('chatbots')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'chatbots.user_id')
    .selectAll('chatbots')
    .select(['user_profiles.plan as owner_plan', 'user_profiles.expires_at as owner_expires_at'])
    .where('chatbots.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { owner_plan, owner_expires_at, ...bot } = row;
  return { bot: bot as Chatbot, owner: { plan: owner_plan ?? null, expires_at: owner_expires_at ?? null } };
}

/** A bot by id that belongs to `userId`, or undefined (so other owners' ids are not confirmed). */
export async function findOwnedChatbot(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<Chatbot | undefined> {
  return db.selectFrom('chatbots').selectAll().where(ownedRow(userId, id)).executeTakeFirst();
}

/** The newest bot of an owner: "the newest chatbot of a user is the one loaded" (spec 000 §3). */
export async function findNewestChatbot(db: Kysely<Database>, userId: string): Promise<Chatbot | undefined> {
  return db
    .selectFrom('chatbots')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** Every bot, newest first, with the owner's e-mail (the CLI's `bots list`). */
export async function listChatbots(db: Kysely<Database>, userId?: string) {
  let q = db
    .selectFrom('chatbots')
    .innerJoin('owners', 'owners.id', 'chatbots.user_id')
    .select([
      'chatbots.id',
      'chatbots.business_name',
      'chatbots.idioma',
      'chatbots.category',
      'chatbots.chatbot_style',
      'chatbots.responses_count',
      'chatbots.created_at',
      'owners.email as owner_email',
    ])
    .orderBy('chatbots.created_at', 'desc');
  if (userId) q = q.where('chatbots.user_id', '=', userId);
  return q.execute();
}

/** Inserts a bot and returns it. */
export async function insertChatbot(db: Kysely<Database>, values: NewChatbot): Promise<Chatbot> {
  return db.insertInto('chatbots').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Updates an owner's bot; returns undefined when no bot of that owner has this id. */
export async function updateOwnedChatbot(
  db: Kysely<Database>,
  userId: string,
  id: string,
  values: ChatbotUpdate,
): Promise<Chatbot | undefined> {
  return db
    .updateTable('chatbots')
    .set({ ...values, updated_at: new Date() })
    .where(ownedRow(userId, id))
    .returningAll()
    .executeTakeFirst();
}

/** An owner's oldest bot with this business name (the demo seed finds its bot this way). */
export async function findOwnedChatbotByName(
  db: Kysely<Database>,
  userId: string,
  businessName: string,
): Promise<Chatbot | undefined> {
  return db
    .selectFrom('chatbots')
    .selectAll()
    .where('user_id', '=', userId)
    .where('business_name', '=', businessName)
    .orderBy('created_at')
    .executeTakeFirst();
}

/**
 * The plan and expiry of each bot's owner (issue 5: channels run only while the owner has days).
 * Bots without a profile come back with null plan and expiry.
 */
export async function ownerPlans(
  db: Kysely<Database>,
  chatbotIds: readonly string[],
): Promise<Array<{ chatbotId: string; plan: string | null; expires_at: Date | string | null }>> {
  if (chatbotIds.length === 0) return [];
  const rows = await db
    .selectFrom('chatbots')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'chatbots.user_id')
    .select(['chatbots.id as chatbotId', 'user_profiles.plan', 'user_profiles.expires_at'])
    .where('chatbots.id', 'in', [...chatbotIds])
    .execute();
  return rows.map((r) => ({
    chatbotId: r.chatbotId,
    plan: r.plan ?? null,
    expires_at: r.expires_at ?? null,
  }));
}

/** Ids of every bot of an owner (channels reconcile them when the owner's days change). */
export async function chatbotIdsOfOwner(db: Kysely<Database>, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('chatbots').select('id').where('user_id', '=', userId).execute();
  return rows.map((r) => r.id);
}

/** A bot by its web key (`charla_key`), or undefined (spec 001 §7: select by key). */
export async function findChatbotByKey(db: Kysely<Database>, key: string): Promise<Chatbot | undefined> {
  return db.selectFrom('chatbots').selectAll().where('charla_key', '=', key).executeTakeFirst();
}

/** Sets a bot's web fields (`charla_key`, `web_enabled`). */
export async function updateWebFields(
  db: Kysely<Database>,
  chatbotId: string,
  values: { charla_key?: string; web_enabled?: boolean },
): Promise<void> {
  await db
    .updateTable('chatbots')
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', chatbotId)
    .execute();
}

/** How often the same site's widget loads are written down again, ms (one write an hour at most). */
export const WIDGET_SEEN_REFRESH_MS = 3_600_000;

/**
 * Records that the bot's widget loaded on the website `origin` (issue 10: /main's first steps).
 * Writes only when the site changed or the last record is older than {@link WIDGET_SEEN_REFRESH_MS},
 * so a busy site costs no write per page view.
 */
export async function recordWidgetSeen(
  db: Kysely<Database>,
  chatbotId: string,
  origin: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable('chatbots')
    .set({ widget_origin: origin, widget_seen_at: now })
    .where('id', '=', chatbotId)
    .where((eb) =>
      eb.or([
        eb('widget_origin', 'is', null),
        eb('widget_origin', '!=', origin),
        eb('widget_seen_at', '<', new Date(now.getTime() - WIDGET_SEEN_REFRESH_MS)),
      ]),
    )
    .execute();
}
