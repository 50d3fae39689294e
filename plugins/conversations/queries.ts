/**
 * The conversations plugin's SQL: its own `conversation_state`, and reads and deletes of the
 * engine's `conversation_messages` and `followers` that the owner's screen is about
 * (docs/plugins.md: a plugin may read and update the engine's tables it is about, in its own module).
 */

import type { ColumnType } from 'kysely';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { ConversationMessage, Database, StoredTurnMeta } from '../../engine/store/database.ts';
import { CHAT_KEY, type ChatKey, chatColumns, ofChat } from '../../engine/store/queries/keys.ts';
import { TEST_CHANNELS } from '../../engine/test-channels.ts';
import type { ConversationStatus, FollowersQuery } from './api.ts';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** `conversation_state` (migrations.ts). */
export interface ConversationStateTable {
  chatbot_id: string;
  channel: string;
  chat_id: string;
  paused_until: Timestamp | null;
  quiet_minutes: ColumnType<number, number | undefined, number>;
  last_read_id: ColumnType<string, string | number | undefined, string | number>;
  /** Issue 27 §4.4 (migration 202611280000). */
  status: ColumnType<ConversationStatus, ConversationStatus | undefined, ConversationStatus>;
  /** Issue 27 §4.2 (migration 202611290000, names.ts): the channel's name of the follower. */
  display_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** Their `@username` or number, as the channel gives it. */
  handle: ColumnType<string | null, string | null | undefined, string | null>;
  /** The name they gave in a booking. */
  booking_name: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: Timestamp;
}
/** `conversation_owner_phones` (migrations.ts): the owner's own chat linked to a bot. */
export interface OwnerPhonesTable {
  chatbot_id: string;
  channel: string | null;
  chat_id: string | null;
  code_hash: string | null;
  code_expires_at: Timestamp | null;
  linked_at: Timestamp | null;
}
/** `conversation_forwards` (migrations.ts): a follower message forwarded to the owner's chat. */
export interface ForwardsTable {
  chatbot_id: string;
  message_id: string;
  channel: string;
  user_id: string;
  created_at: Timestamp;
}
/** `conversation_owner_files` (migrations.ts 202611290000). */
export interface OwnerFilesTable {
  id: string;
  chatbot_id: string;
  channel: string;
  chat_id: string;
  /** The storage key, `{ownerId}/{timestamp}_{name}`. */
  storage_key: string;
  /** The file's name as shown (`nota-de-voz.ogg`). */
  name: string;
  mime: string;
  /** Bytes. */
  size_bytes: number;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}
type Tables = {
  conversation_state: ConversationStateTable;
  conversation_owner_phones: OwnerPhonesTable;
  conversation_forwards: ForwardsTable;
  conversation_owner_files: OwnerFilesTable;
};
export type ConversationsDb = Kysely<Database & Tables>;
export type ConversationStateRow = Selectable<ConversationStateTable>;

/** The store with the plugin's tables. */
export function conversationsDb(db: Kysely<Database>): ConversationsDb {
  return db.withTables<Tables>();
}

/** One conversation: a follower of a bot on a channel. */
export type ConversationKey = ChatKey;

/** The conversation's state, if any was stored. */
export async function findState(
  db: ConversationsDb,
  k: ConversationKey,
): Promise<ConversationStateRow | undefined> {
  return db.selectFrom('conversation_state').selectAll().where(ofChat(k)).executeTakeFirst();
}

/** Upserts part of a conversation's state. */
export async function saveState(
  db: ConversationsDb,
  k: ConversationKey,
  change: {
    paused_until?: Date | null;
    quiet_minutes?: number;
    last_read_id?: string;
    status?: ConversationStatus;
  },
  now: Date,
): Promise<void> {
  await db
    .insertInto('conversation_state')
    .values({ ...chatColumns(k), ...change, updated_at: now })
    .onConflict((oc) => oc.columns(CHAT_KEY).doUpdateSet({ ...change, updated_at: now }))
    .execute();
}

/** A follower of the list, before shaping. */
export interface FollowerSummary {
  channel: string;
  user_id: string;
  name: string | null;
  /** Their `@username` or WhatsApp number (issue 27 §4.2), else null. */
  handle: string | null;
  /** The visitor's rank among the bot's web and IALanding followers (first seen first), else null. */
  visitor_no: number | null;
  status: ConversationStatus;
  last_text: string;
  last_from: 'user' | 'bot' | 'owner';
  last_at: Date;
  unread: number;
  paused_until: Date | null;
}

const WEB_CHANNELS = sql.join(['web', 'ialanding'].map((c) => sql`${c}`));
const TESTS = sql.join(TEST_CHANNELS.map((c) => sql`${c}`));

/**
 * A bot's followers with a conversation, newest activity first (at most 200). Issue 27 §4.2: `name`
 * is the channel's name of the follower, else the one given in a booking, else the username
 * (names.ts), with `handle` (@username, number); a last message that is only a file shows as its
 * kind (🎤 for the owner's voice note). Issue 27 §4.3, §4.5:
 * `q` matches the name, the id or any message's text (case-insensitive); `channel` and `status`
 * filter; the owner's test chats (engine/test-channels.ts) are left out unless `tests` is '1'.
 */
export async function listFollowers(
  db: ConversationsDb,
  chatbotId: string,
  filter: FollowersQuery,
): Promise<FollowerSummary[]> {
  const like = filter.q ? `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const result = await sql<FollowerSummary>`
    with convs as (
      select channel, user_id, max(id) as last_id, max(created_at) as last_at
      from conversation_messages
      where chatbot_id = ${chatbotId}
        and ${filter.channel ? sql`channel = ${filter.channel}` : sql`true`}
        and ${filter.tests === '1' ? sql`true` : sql`channel not in (${TESTS})`}
      group by channel, user_id
    ),
    visitors as (
      select channel, external_id, row_number() over (order by first_seen_at, id)::int as n
      from followers where chatbot_id = ${chatbotId} and channel in (${WEB_CHANNELS})
    )
    select * from (
      select c.channel, c.user_id,
        coalesce(s.display_name, s.booking_name, f.username, (select m2.username from conversation_messages m2
          where m2.chatbot_id = ${chatbotId} and m2.channel = c.channel and m2.user_id = c.user_id and m2.username is not null
          order by m2.id desc limit 1)) as name,
        s.handle, v.n as visitor_no,
        coalesce(s.status, 'open') as status,
        -- A file alone (the owner's voice note to a web visitor) shows as its kind.
        coalesce(nullif(m.text, ''), case m.meta->'attachment'->>'type' when 'audio' then '🎤'
          when 'image' then '🖼️' when 'video' then '🎬' when 'pdf' then '📄' when 'document' then '📄' else '' end) as last_text, m.sender as last_from, c.last_at, c.last_id,
        (select count(*) from conversation_messages u
          where u.chatbot_id = ${chatbotId} and u.channel = c.channel and u.user_id = c.user_id and u.sender = 'user'
            and u.id > coalesce(s.last_read_id, 0))::int as unread,
        s.paused_until
      from convs c
      join conversation_messages m on m.id = c.last_id
      left join followers f on f.chatbot_id = ${chatbotId} and f.channel = c.channel and f.external_id = c.user_id
      left join visitors v on v.channel = c.channel and v.external_id = c.user_id
      left join conversation_state s on s.chatbot_id = ${chatbotId} and s.channel = c.channel and s.chat_id = c.user_id
      -- The owner's own linked chat (replies from the phone) is not a follower.
      where not exists (select 1 from conversation_owner_phones o
          where o.chatbot_id = ${chatbotId} and o.channel = c.channel and o.chat_id = c.user_id)
        and ${
          like === null
            ? sql`true`
            : sql`(c.user_id ilike ${like} or f.username ilike ${like} or s.display_name ilike ${like}
                or s.handle ilike ${like} or s.booking_name ilike ${like} or exists (
                select 1 from conversation_messages x where x.chatbot_id = ${chatbotId}
                  and x.channel = c.channel and x.user_id = c.user_id and x.text ilike ${like}))`
        }
    ) r
    where ${filter.status ? sql`r.status = ${filter.status}` : sql`true`}
    order by r.last_at desc, r.last_id desc
    limit 200`.execute(db);
  return result.rows.map((r) => ({
    ...r,
    last_at: new Date(r.last_at),
    paused_until: r.paused_until ? new Date(r.paused_until) : null,
  }));
}

/** A page of a conversation's messages, oldest first: the `limit` before message id `before` (or the newest). */
export async function listMessages(
  db: ConversationsDb,
  k: ConversationKey,
  before: string | undefined,
  limit: number,
): Promise<{ rows: ConversationMessage[]; more: boolean }> {
  let q = db
    .selectFrom('conversation_messages')
    .selectAll()
    .where('chatbot_id', '=', k.chatbotId)
    .where('channel', '=', k.channel)
    .where('user_id', '=', k.chatId);
  if (before) q = q.where('id', '<', before);
  const rows = await q
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  return { rows: rows.slice(0, limit).reverse(), more: rows.length > limit };
}

/** Deletes a conversation's messages and state (spec 001 §8: delete by chatbot and user). @returns messages deleted. */
export async function deleteConversation(db: ConversationsDb, k: ConversationKey): Promise<number> {
  const r = await db
    .deleteFrom('conversation_messages')
    .where('chatbot_id', '=', k.chatbotId)
    .where('channel', '=', k.channel)
    .where('user_id', '=', k.chatId)
    .executeTakeFirst();
  await db.deleteFrom('conversation_state').where(ofChat(k)).execute();
  return Number(r.numDeletedRows);
}

/** The attachment a stored bot message carried, if any. */
export function attachmentOf(meta: unknown): StoredTurnMeta['attachment'] {
  return meta && typeof meta === 'object' && 'attachment' in meta
    ? ((meta as StoredTurnMeta).attachment ?? null)
    : null;
}

/**
 * What the conversations plugin keeps of an owner's bots, for their data export (issue 26 §5): the
 * state of each conversation (paused, read up to) and the phone linked to each bot (no link code).
 */
export async function ownerConversationsData(db: ConversationsDb, ownerId: string) {
  const states = await db
    .selectFrom('conversation_state as s')
    .innerJoin('chatbots as b', 'b.id', 's.chatbot_id')
    .selectAll('s')
    .where('b.user_id', '=', ownerId)
    .execute();
  const phones = await db
    .selectFrom('conversation_owner_phones as p')
    .innerJoin('chatbots as b', 'b.id', 'p.chatbot_id')
    .select(['p.chatbot_id', 'p.channel', 'p.chat_id', 'p.linked_at'])
    .where('b.user_id', '=', ownerId)
    .where('p.linked_at', 'is not', null)
    .execute();
  return { states, phones };
}
