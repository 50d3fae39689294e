/**
 * The notifications plugin's SQL (issue 27 §1, §2): its own tables (migrations.ts), and reads of
 * the engine's `owners`, `chatbots` and `conversation_messages` it is about (whose bot, to whom the
 * mail goes, whether a follower wrote before).
 */
import { type ColumnType, type Generated, type Kysely, sql } from 'kysely';
import type { Database } from '../../engine/store/database.ts';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

interface SettingsTable {
  owner_id: string;
  language: ColumnType<string, string | undefined, string>;
  /** `{ kind: [route, …] }`: the routes turned off per kind (absent: on). */
  routes_off: ColumnType<Record<string, string[]>, string | undefined, string>;
  updated_at: Timestamp;
}
interface EventsTable {
  id: Generated<string>;
  owner_id: string;
  /** Null for an event about the account (days running out). */
  chatbot_id: string | null;
  kind: string;
  grp: string;
  dedupe: string;
  data: ColumnType<Record<string, unknown>, string, string>;
  created_at: Timestamp;
  claimed_by: string | null;
  claimed_at: Timestamp | null;
  mailed_at: Timestamp | null;
  /** When the event's other routes (telegram, push, page) were queued; null until then. */
  routed_at: Timestamp | null;
}
interface ChannelStateTable {
  chatbot_id: string;
  channel: string;
  down: boolean;
  since: Timestamp;
}
interface PushTable {
  /** SHA-256 (hex) of the endpoint URL. */
  endpoint_hash: string;
  owner_id: string;
  /** The endpoint URL and `{p256dh, auth}` JSON, sealed (engine/secrets.ts). */
  endpoint_sealed: string;
  keys_sealed: string;
  created_at: Timestamp;
}

/** The store with the plugin's tables. */
export type NotificationsDb = Kysely<
  Database & {
    notification_settings: SettingsTable;
    notification_events: EventsTable;
    notification_push_subscriptions: PushTable;
    notification_channel_state: ChannelStateTable;
  }
>;

/** The store seen with the plugin's tables. */
export function notificationsDb(db: Kysely<Database>): NotificationsDb {
  return db.withTables<{
    notification_settings: SettingsTable;
    notification_events: EventsTable;
    notification_push_subscriptions: PushTable;
    notification_channel_state: ChannelStateTable;
  }>();
}

/** One stored event waiting for (or in) a mail. */
export interface StoredEvent {
  id: string;
  owner_id: string;
  chatbot_id: string | null;
  kind: string;
  grp: string;
  data: Record<string, unknown>;
  created_at: Date;
}

/** An owner's choices: mail language and the routes they turned off per event kind. */
export async function findSettings(
  db: NotificationsDb,
  ownerId: string,
): Promise<{ language: string; routes_off: Record<string, string[]> } | undefined> {
  return db
    .selectFrom('notification_settings')
    .select(['language', 'routes_off'])
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
}

/** Stores an owner's choices (insert or update). */
export async function saveSettings(
  db: NotificationsDb,
  ownerId: string,
  values: { language: string; routesOff: Record<string, string[]> },
  now: Date,
): Promise<void> {
  const row = { language: values.language, routes_off: JSON.stringify(values.routesOff), updated_at: now };
  await db
    .insertInto('notification_settings')
    .values({ owner_id: ownerId, ...row })
    .onConflict((oc) => oc.column('owner_id').doUpdateSet(row))
    .execute();
}

/** A bot's owner and business, or undefined for an unknown bot. */
export async function findBotOwner(
  db: NotificationsDb,
  chatbotId: string,
): Promise<{ owner_id: string; email: string; business_name: string } | undefined> {
  return db
    .selectFrom('chatbots as c')
    .innerJoin('owners as o', 'o.id', 'c.user_id')
    .select(['o.id as owner_id', 'o.email', 'c.business_name'])
    .where('c.id', '=', chatbotId)
    .executeTakeFirst();
}

/** An owner's e-mail and the business of their newest bot ('' without one), or undefined. */
export async function findOwner(
  db: NotificationsDb,
  ownerId: string,
): Promise<{ email: string; business_name: string } | undefined> {
  const owner = await db.selectFrom('owners').select('email').where('id', '=', ownerId).executeTakeFirst();
  if (!owner) return undefined;
  const bot = await db
    .selectFrom('chatbots')
    .select('business_name')
    .where('user_id', '=', ownerId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return { email: owner.email, business_name: bot?.business_name ?? '' };
}

/** Owners whose days end before `until` and ended after `since`, with their plan and expiry. */
export async function ownersExpiring(
  db: NotificationsDb,
  since: Date,
  until: Date,
): Promise<Array<{ owner_id: string; plan: string; expires_at: Date }>> {
  const rows = await db
    .selectFrom('user_profiles')
    .select(['user_id', 'plan', 'expires_at'])
    .where('expires_at', 'is not', null)
    .where('expires_at', '>', since)
    .where('expires_at', '<=', until)
    .limit(5_000)
    .execute();
  return rows.map((r) => ({ owner_id: r.user_id, plan: r.plan, expires_at: new Date(r.expires_at!) }));
}

/** True when the follower has any stored message with the bot on that channel. */
export async function hasWritten(
  db: NotificationsDb,
  chatbotId: string,
  channel: string,
  userId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('conversation_messages')
    .select(sql<number>`1`.as('one'))
    .where('chatbot_id', '=', chatbotId)
    .where('channel', '=', channel)
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Records an event once (`dedupe` is unique).
 * @returns the new event's id, or null when it was recorded before.
 */
export async function insertEvent(
  db: NotificationsDb,
  e: {
    ownerId: string;
    chatbotId: string | null;
    kind: string;
    grp: string;
    dedupe: string;
    data: unknown;
    at: Date;
  },
): Promise<string | null> {
  const row = await db
    .insertInto('notification_events')
    .values({
      owner_id: e.ownerId,
      chatbot_id: e.chatbotId,
      kind: e.kind,
      grp: e.grp,
      dedupe: e.dedupe,
      data: JSON.stringify(e.data),
      created_at: e.at,
    })
    .onConflict((oc) => oc.column('dedupe').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? String(row.id) : null;
}

/** When the group's last mail went out, or null. */
export async function lastMailed(db: NotificationsDb, grp: string): Promise<Date | null> {
  const row = await db
    .selectFrom('notification_events')
    .select('mailed_at')
    .where('grp', '=', grp)
    .where('mailed_at', 'is not', null)
    .orderBy('mailed_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.mailed_at ? new Date(row.mailed_at) : null;
}

/**
 * Claims the group's unmailed events for one job (one statement, so two jobs never claim the same
 * event): those unclaimed, already this job's (a retry), or claimed longer than `staleMs` ago (a
 * job that died).
 */
export async function claimEvents(
  db: NotificationsDb,
  grp: string,
  jobId: string,
  now: Date,
  staleMs: number,
): Promise<StoredEvent[]> {
  const stale = new Date(now.getTime() - staleMs);
  const rows = await db
    .updateTable('notification_events')
    .set({ claimed_by: jobId, claimed_at: now })
    .where('grp', '=', grp)
    .where('mailed_at', 'is', null)
    .where((eb) =>
      eb.or([eb('claimed_by', 'is', null), eb('claimed_by', '=', jobId), eb('claimed_at', '<', stale)]),
    )
    .returning(['id', 'owner_id', 'chatbot_id', 'kind', 'grp', 'data', 'created_at'])
    .execute();
  return rows
    .map((r) => ({ ...r, id: String(r.id), created_at: new Date(r.created_at) }))
    .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || Number(a.id) - Number(b.id));
}

/** Marks claimed events mailed (or skipped: the owner turned their kind off). */
export async function markMailed(
  db: NotificationsDb,
  ids: string[],
  jobId: string,
  now: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('notification_events')
    .set({ mailed_at: now })
    .where('id', 'in', ids)
    .where('claimed_by', '=', jobId)
    .execute();
}

/** Groups with events left unmailed since before `before` (the sweep's work). */
export async function staleGroups(db: NotificationsDb, before: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('notification_events')
    .select('grp')
    .distinct()
    .where('mailed_at', 'is', null)
    .where('created_at', '<', before)
    .limit(500)
    .execute();
  return rows.map((r) => r.grp);
}

/** One stored event by id, or undefined (its owner or bot was deleted). */
export async function findEvent(db: NotificationsDb, id: string): Promise<StoredEvent | undefined> {
  const r = await db
    .selectFrom('notification_events')
    .select(['id', 'owner_id', 'chatbot_id', 'kind', 'grp', 'data', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return r ? { ...r, id: String(r.id), created_at: new Date(r.created_at) } : undefined;
}

/** Marks an event's other routes queued (see {@link unroutedEvents}). */
export async function markRouted(db: NotificationsDb, id: string, now: Date): Promise<void> {
  await db.updateTable('notification_events').set({ routed_at: now }).where('id', '=', id).execute();
}

/** Events recorded before `before` whose routes were never queued (a process died in between). */
export async function unroutedEvents(db: NotificationsDb, before: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('notification_events')
    .select('id')
    .where('routed_at', 'is', null)
    .where('created_at', '<', before)
    .limit(500)
    .execute();
  return rows.map((r) => String(r.id));
}

/** The owner's rows for their export (issue 26 §5). */
export async function ownerNotificationsData(db: NotificationsDb, ownerId: string) {
  const settings = await findSettings(db, ownerId);
  // The push endpoints are capability URLs (secrets): only when each was added.
  const push = await db
    .selectFrom('notification_push_subscriptions')
    .select('created_at')
    .where('owner_id', '=', ownerId)
    .execute();
  return { settings: settings ?? null, pushSubscriptions: push.map((p) => ({ createdAt: p.created_at })) };
}
