/**
 * conversation_messages and followers (spec 001 §3). A turn is stored as two rows in one
 * statement, keyed by (chatbot, channel, message id) so a retried message is answered from the
 * store and never stored twice.
 */
import { type Kysely, sql } from 'kysely';
import type { Database, InboundMeta, StoredTurnMeta } from '../database.ts';
import { batcherPer, MicroBatcher } from '../micro-batch.ts';

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

/** One row of the conversation read: `i` is the 1-based index of the key it answers. */
interface ConversationRow {
  i: number;
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

/** Which conversation {@link loadConversation} reads, and what of it. */
export interface ConversationKey {
  chatbotId: string;
  channel: string;
  /** The follower. */
  userId: string;
  /**
   * Read the history and the last meta (false for an anonymous caller: it shares one id with every
   * other anonymous caller, so it gets no history).
   */
  withHistory: boolean;
  /** The message id whose stored turn is looked up, or null. */
  messageId: string | null;
  /** Messages of history, at most. */
  limit: number;
}

function storedFrom(rows: ConversationRow[]): StoredTurn | undefined {
  const user = rows.find((r) => r.sender === 'user');
  const bot = rows.find((r) => r.sender === 'bot');
  if (user && bot) return { userText: user.text, botText: bot.text, meta: bot.meta as StoredTurnMeta | null };
  const silent = (user?.meta as InboundMeta | null)?.silent;
  return user && silent ? { userText: user.text, botText: '', meta: null, silent } : undefined;
}

/**
 * Reads several turns' conversations in one statement (see {@link loadConversation}): the keys go
 * as one JSON array (`b` bot, `c` channel, `u` follower, `h` with history, `m` message id, `l`
 * limit) and each key's rows come back tagged with its 1-based index `i`. Per key: its last `l`
 * messages, the meta of the bot's latest message, and the stored turn of its message id, each from
 * the (chatbot_id, channel, user_id, id DESC) index or the turn key. The text is the same for any
 * number of keys, so it is prepared once per connection.
 */
async function loadConversations(
  db: Kysely<Database>,
  keys: readonly ConversationKey[],
): Promise<ConversationState[]> {
  const byKey: ConversationRow[][] = keys.map(() => []);
  const wanted = keys.flatMap((k, index) => (k.withHistory || k.messageId !== null ? [{ k, index }] : []));
  if (wanted.length > 0) {
    const param = JSON.stringify(
      wanted.map(({ k }) => ({
        b: k.chatbotId,
        c: k.channel,
        u: k.userId,
        h: k.withHistory,
        m: k.messageId,
        l: k.limit,
      })),
    );
    const { rows } = await sql<ConversationRow>`select e.i::int as i, r.id, r.sender, r.text, r.meta, r.kind
      from jsonb_array_elements(${param}::jsonb) with ordinality as e(k, i)
      cross join lateral (
        (select id, sender, text, null::jsonb as meta, 'h' as kind from conversation_messages
          where (e.k->>'h')::boolean and chatbot_id = e.k->>'b' and channel = e.k->>'c' and user_id = e.k->>'u'
          order by id desc limit (e.k->>'l')::int)
        union all
        (select id, sender, text, meta, 'm' as kind from conversation_messages
          where (e.k->>'h')::boolean and chatbot_id = e.k->>'b' and channel = e.k->>'c' and user_id = e.k->>'u'
            and sender = 'bot'
          order by id desc limit 1)
        union all
        (select m.id, m.sender, m.text, m.meta, 's' as kind from conversation_messages m,
          (select id from conversation_messages
            where chatbot_id = e.k->>'b' and channel = e.k->>'c' and user_id = e.k->>'u'
              and message_id = e.k->>'m' and sender = 'user') u
          where m.id = u.id or m.reply_to = u.id)
      ) r`.execute(db);
    for (const row of rows) byKey[wanted[row.i - 1]!.index]!.push(row);
  }
  return byKey.map((rows) => {
    const history = rows
      .filter((r) => r.kind === 'h')
      .sort((a, b) => a.id - b.id)
      .map((r) => ({ sender: r.sender, text: r.text }));
    const lastMeta = (rows.find((r) => r.kind === 'm')?.meta ?? null) as StoredTurnMeta | null;
    return { history, lastMeta, stored: storedFrom(rows.filter((r) => r.kind === 's')) };
  });
}

/** Concurrent reads of one database handle, grouped (engine/store/micro-batch.ts). */
const readsOf = batcherPer(
  (db: Kysely<Database>) =>
    new MicroBatcher<ConversationKey, ConversationState>((keys) => loadConversations(db, keys)),
);

/**
 * Everything a turn reads, in one round trip: the follower's last `limit` messages, the meta of the
 * bot's latest message to them, and the stored turn of `messageId` when this follower sent it before
 * (a message id is an idempotency key per follower, issue 24 §8). Reads that arrive while others are
 * running share one statement (micro-batch.ts), so a busy server makes one round trip for many turns.
 */
export function loadConversation(db: Kysely<Database>, key: ConversationKey): Promise<ConversationState> {
  return readsOf(db).call(key);
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

/** What {@link persistTurn} gives back. */
export interface PersistedTurn {
  turn: StoredTurn;
  /** True when another request had stored this message id: `turn` is that one. */
  duplicate: boolean;
}

/**
 * Stores several turns in one statement (data-modifying CTEs run atomically: one round trip, no
 * explicit transaction). The turns go as one JSON array (`i` order, `b` bot, `c` channel, `u`
 * follower, `n` username, `m` message id, `ut`/`um` the follower's text and meta, `bt`/`bm` the
 * answer and its meta; a null meta or answer is left out, so `->` gives SQL NULL). A message id
 * given twice in one batch is stored once; the later one, like one stored before (the insert's ON
 * CONFLICT on the turn key), has no row here and is looked up as a duplicate.
 */
async function persistTurns(db: Kysely<Database>, turns: readonly TurnToStore[]): Promise<PersistedTurn[]> {
  const param = JSON.stringify(
    turns.map((t, i) => ({
      i: i + 1,
      b: t.chatbotId,
      c: t.channel,
      u: t.userId,
      n: t.username,
      m: t.messageId,
      ut: t.userText,
      ...(t.userMeta ? { um: t.userMeta } : {}),
      ...(t.botText !== null ? { bt: t.botText } : {}),
      bm: t.meta,
    })),
  );
  const { rows } = await sql<{ i: number; user_text: string; bot_text: string | null }>`
    with t as (
      select distinct on (k->>'b', k->>'c', k->>'u', k->>'m')
        (k->>'i')::int as i, k->>'b' as chatbot_id, k->>'c' as channel, k->>'u' as user_id,
        k->>'n' as username, k->>'m' as message_id, k->>'ut' as user_text, k->'um' as user_meta,
        k->>'bt' as bot_text, k->'bm' as bot_meta
      from jsonb_array_elements(${param}::jsonb) as e(k)
      order by k->>'b', k->>'c', k->>'u', k->>'m', (k->>'i')::int
    ), u as (
      insert into conversation_messages (chatbot_id, channel, user_id, sender, username, text, ai_response, message_id, meta)
      select chatbot_id, channel, user_id, 'user', username, user_text, false, message_id, user_meta from t order by i
      on conflict (chatbot_id, channel, user_id, message_id) where sender = 'user' and message_id is not null do nothing
      returning id, chatbot_id, channel, user_id, message_id, text
    ), tu as (
      select t.*, u.id as user_row, u.text as stored_user_text from t
      join u on u.chatbot_id = t.chatbot_id and u.channel = t.channel and u.user_id = t.user_id and u.message_id = t.message_id
    ), b as (
      insert into conversation_messages (chatbot_id, channel, user_id, sender, username, text, ai_response, reply_to, meta)
      select chatbot_id, channel, user_id, 'bot', username, bot_text, true, user_row, bot_meta
      from tu where bot_text is not null order by i
      returning reply_to, text
    ), f as (
      insert into followers (chatbot_id, channel, external_id, username)
      select distinct on (chatbot_id, channel, user_id) chatbot_id, channel, user_id, username
      from tu order by chatbot_id, channel, user_id, i desc
      on conflict (chatbot_id, channel, external_id)
      do update set last_seen_at = now(), username = coalesce(excluded.username, followers.username)
      returning 1
    )
    select tu.i, tu.stored_user_text as user_text, b.text as bot_text from tu left join b on b.reply_to = tu.user_row`.execute(
    db,
  );
  const byIndex = new Map(rows.map((r) => [r.i, r]));
  return Promise.all(
    turns.map(async (turn, index): Promise<PersistedTurn> => {
      const row = byIndex.get(index + 1);
      if (row && turn.botText === null)
        return {
          turn: {
            userText: row.user_text,
            botText: '',
            meta: null,
            ...(turn.userMeta?.silent ? { silent: turn.userMeta.silent } : {}),
          },
          duplicate: false,
        };
      if (row && row.bot_text !== null)
        return {
          turn: { userText: row.user_text, botText: row.bot_text, meta: turn.meta },
          duplicate: false,
        };
      const stored = await findTurn(db, turn);
      if (!stored) throw new Error(`turn ${turn.messageId} conflicted but is not stored`);
      return { turn: stored, duplicate: true };
    }),
  );
}

/** Concurrent writes of one database handle, grouped (engine/store/micro-batch.ts). */
const writesOf = batcherPer(
  (db: Kysely<Database>) => new MicroBatcher<TurnToStore, PersistedTurn>((turns) => persistTurns(db, turns)),
);

/**
 * Stores both messages of a turn (or only the follower's, for a silent turn) and records the
 * follower (first and last seen) in one statement, shared with the turns being stored meanwhile
 * (micro-batch.ts). The bot's response count and the NOTIFY to listeners are batched by the caller
 * (engine/store/batcher.ts).
 * @returns the stored turn and `duplicate: true` when another request already stored this
 *   message id (the caller answers with the stored turn).
 */
export function persistTurn(db: Kysely<Database>, turn: TurnToStore): Promise<PersistedTurn> {
  return writesOf(db).call(turn);
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
