/**
 * conversation_messages and followers (spec 001 §3). A turn is stored as two rows in one
 * statement, keyed by (chatbot, channel, message id) so a retried message is answered from the
 * store and never stored twice.
 */
import { type Kysely, sql } from 'kysely';
import type { Database, InboundMeta, StoredTurnMeta } from '../database.ts';

/** Channel of NOTIFY events for new conversation messages; the payload is JSON `{chatbotId, channel, userId}`. */
export const MESSAGES_CHANNEL = 'charla_messages';

/**
 * A stored turn: the follower's text, the bot's answer and what the engine stored with it. A
 * silent turn (an owner had taken over) has no answer: `botText` is empty and `silent` is set.
 */
export interface StoredTurn {
  userText: string;
  botText: string;
  meta: StoredTurnMeta | null;
  silent?: { plugin: string; reason: string };
}

/** One row of {@link loadConversation}. */
interface ConversationRow {
  id: number;
  sender: 'user' | 'bot' | 'owner';
  text: string;
  meta: StoredTurnMeta | InboundMeta | null;
  /** h: history, m: the latest bot message's meta, s: the stored turn of the message id. */
  kind: 'h' | 'm' | 's';
}

/** What the engine reads before a turn. */
export interface ConversationState {
  /** The follower's last messages, oldest first (empty when no follower was given). */
  history: Array<{ sender: 'user' | 'bot' | 'owner'; text: string }>;
  /** What was stored with the bot's latest message to this follower (files sent, list offered). */
  lastMeta: StoredTurnMeta | null;
  /** The stored answer when this message id was answered before. */
  stored: StoredTurn | undefined;
}

function storedFrom(rows: ConversationRow[]): StoredTurn | undefined {
  const user = rows.find((r) => r.sender === 'user');
  const bot = rows.find((r) => r.sender === 'bot');
  if (user && bot) return { userText: user.text, botText: bot.text, meta: bot.meta as StoredTurnMeta | null };
  const silent = (user?.meta as InboundMeta | null)?.silent;
  return user && silent ? { userText: user.text, botText: '', meta: null, silent } : undefined;
}

/**
 * Everything a turn reads, in one round trip: the follower's last `limit` messages, the meta of the
 * bot's latest message to them, and the stored turn of `messageId` when this follower sent it before
 * (a message id is an idempotency key per follower, issue 24 §8).
 * @param key.userId the follower; `history` is read only when `withHistory` (an anonymous caller
 *   shares one id with every other anonymous caller, so it gets no history).
 */
export async function loadConversation(
  db: Kysely<Database>,
  key: {
    chatbotId: string;
    channel: string;
    userId: string;
    withHistory: boolean;
    messageId: string | null;
    limit: number;
  },
): Promise<ConversationState> {
  const parts = [];
  if (key.withHistory) {
    parts.push(sql`(select id, sender, text, null::jsonb as meta, 'h' as kind from conversation_messages
      where chatbot_id = ${key.chatbotId} and channel = ${key.channel} and user_id = ${key.userId}
      order by id desc limit ${key.limit})`);
    parts.push(sql`(select id, sender, text, meta, 'm' as kind from conversation_messages
      where chatbot_id = ${key.chatbotId} and channel = ${key.channel} and user_id = ${key.userId} and sender = 'bot'
      order by id desc limit 1)`);
  }
  if (key.messageId !== null) {
    parts.push(sql`(select m.id, m.sender, m.text, m.meta, 's' as kind from conversation_messages m,
      (select id from conversation_messages
        where chatbot_id = ${key.chatbotId} and channel = ${key.channel} and user_id = ${key.userId}
          and message_id = ${key.messageId} and sender = 'user') u
      where m.id = u.id or m.reply_to = u.id)`);
  }
  if (parts.length === 0) return { history: [], lastMeta: null, stored: undefined };
  const { rows } = await sql<ConversationRow>`${sql.join(parts, sql` union all `)}`.execute(db);
  const history = rows
    .filter((r) => r.kind === 'h')
    .sort((a, b) => a.id - b.id)
    .map((r) => ({ sender: r.sender, text: r.text }));
  const lastMeta = (rows.find((r) => r.kind === 'm')?.meta ?? null) as StoredTurnMeta | null;
  return { history, lastMeta, stored: storedFrom(rows.filter((r) => r.kind === 's')) };
}

/** The stored turn of a follower's message id, or undefined when that message was never answered. */
export async function findTurn(
  db: Kysely<Database>,
  key: { chatbotId: string; channel: string; userId: string; messageId: string },
): Promise<StoredTurn | undefined> {
  return (await loadConversation(db, { ...key, withHistory: false, limit: 0 })).stored;
}

/** What {@link persistTurn} writes. */
export interface TurnToStore {
  chatbotId: string;
  channel: string;
  /** The follower's id on the channel. */
  userId: string;
  username: string | null;
  messageId: string;
  userText: string;
  /** What is stored with the follower's message (media received, a rewrite, silence). */
  userMeta?: InboundMeta | null;
  /** The bot's answer, or null for a silent turn (only the follower's message is stored). */
  botText: string | null;
  meta: StoredTurnMeta;
}

/**
 * Stores both messages of a turn (or only the follower's, for a silent turn) and records the
 * follower (first and last seen) in one statement (data-modifying CTEs run atomically: one round
 * trip, no explicit transaction). The bot's response count and the NOTIFY to listeners are
 * batched by the caller (engine/store/batcher.ts).
 * @returns the stored turn and `duplicate: true` when another request already stored this
 *   message id (the caller answers with the stored turn).
 */
export async function persistTurn(
  db: Kysely<Database>,
  turn: TurnToStore,
): Promise<{ turn: StoredTurn; duplicate: boolean }> {
  const userMeta = turn.userMeta ? JSON.stringify(turn.userMeta) : null;
  const { rows } = await sql<{ sender: 'user' | 'bot'; text: string }>`
    with u as (
      insert into conversation_messages (chatbot_id, channel, user_id, sender, username, text, ai_response, message_id, meta)
      values (${turn.chatbotId}, ${turn.channel}, ${turn.userId}, 'user', ${turn.username}, ${turn.userText}, false, ${turn.messageId}, ${userMeta}::jsonb)
      on conflict (chatbot_id, channel, user_id, message_id) where sender = 'user' and message_id is not null do nothing
      returning id, sender, text
    ), b as (
      insert into conversation_messages (chatbot_id, channel, user_id, sender, username, text, ai_response, reply_to, meta)
      select ${turn.chatbotId}, ${turn.channel}, ${turn.userId}, 'bot', ${turn.username}, ${turn.botText}, true, u.id, ${JSON.stringify(turn.meta)}::jsonb
      from u where ${turn.botText !== null}
      returning sender, text
    ), f as (
      insert into followers (chatbot_id, channel, external_id, username)
      select ${turn.chatbotId}, ${turn.channel}, ${turn.userId}, ${turn.username} from u
      on conflict (chatbot_id, channel, external_id)
      do update set last_seen_at = now(), username = coalesce(excluded.username, followers.username)
      returning 1
    )
    select sender, text from u union all select sender, text from b`.execute(db);
  const user = rows.find((r) => r.sender === 'user');
  const bot = rows.find((r) => r.sender === 'bot');
  if (user && turn.botText === null)
    return {
      turn: {
        userText: user.text,
        botText: '',
        meta: null,
        ...(turn.userMeta?.silent ? { silent: turn.userMeta.silent } : {}),
      },
      duplicate: false,
    };
  if (user && bot)
    return { turn: { userText: user.text, botText: bot.text, meta: turn.meta }, duplicate: false };
  const stored = await findTurn(db, turn);
  if (!stored) throw new Error(`turn ${turn.messageId} conflicted but is not stored`);
  return { turn: stored, duplicate: true };
}

/** What {@link insertOutgoing} writes: a message to a follower that answers no message of theirs. */
export interface OutgoingToStore {
  chatbotId: string;
  channel: string;
  /** The follower's id on the channel. */
  userId: string;
  /** `bot` for a plugin's message (a reminder), `owner` for a hand-written one. */
  sender: 'bot' | 'owner';
  text: string;
  meta: StoredTurnMeta | null;
}

/**
 * Stores a message sent to a follower outside a turn (a reminder, an owner's reply, a broadcast).
 * `ai_response` is false (spec 001 §3: the engine did not write it as an answer). The NOTIFY to
 * listeners is the caller's (batched).
 */
export async function insertOutgoing(db: Kysely<Database>, message: OutgoingToStore): Promise<void> {
  await db
    .insertInto('conversation_messages')
    .values({
      chatbot_id: message.chatbotId,
      channel: message.channel,
      user_id: message.userId,
      sender: message.sender,
      username: null,
      text: message.text,
      ai_response: false,
      meta: message.meta ? JSON.stringify(message.meta) : null,
    })
    .execute();
}

/** Adds `count` replies to a bot's `responses_count`. */
export async function addResponses(db: Kysely<Database>, chatbotId: string, count: number): Promise<void> {
  await db
    .updateTable('chatbots')
    .set({ responses_count: sql`responses_count + ${count}` })
    .where('id', '=', chatbotId)
    .execute();
}

/** Sends NOTIFY events, several in one statement. */
export async function notifyMany(
  db: Kysely<Database>,
  events: ReadonlyArray<{ channel: string; payload: string }>,
): Promise<void> {
  if (events.length === 0) return;
  const calls = events.map((e) => sql`pg_notify(${e.channel}, ${e.payload})`);
  await sql`select ${sql.join(calls)}`.execute(db);
}
