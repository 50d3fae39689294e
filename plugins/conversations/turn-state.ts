/**
 * What the conversations middleware reads on every follower turn, cached per bot so the common turn
 * costs no query (issue 25, the speed step): the owner's linked phone chat and the followers the
 * bot is currently paused for (taken over).
 *
 * Every process sharing the database keeps the same truth: each write that changes either
 * (a takeover, a resume, an owner's reply, a deleted conversation, a link or unlink of the owner's
 * phone) goes through {@link TurnStateCache.changed}, which forgets the bot here at once and sends a
 * PostgreSQL NOTIFY on the engine's messages channel (`charla_messages`, the same one
 * `ctx.onMessages` delivers) with `conversations: 'state'`; every process's cache forgets that bot
 * when it hears it, and forgets everything when its LISTEN connection comes back after a loss
 * (events may have been missed). A {@link TURN_STATE_TTL_MS} expiry bounds what a lost
 * notification could leave stale.
 */
import { sql } from 'kysely';
import type { MessagesEvent, PluginContext } from '../../engine/registry/index.ts';
import { MESSAGES_CHANNEL } from '../../engine/store/queries/messages.ts';
import type { ConversationKey, ConversationsDb } from './queries.ts';

/** Longest time a cached entry is trusted without a notification, ms. */
export const TURN_STATE_TTL_MS = 5_000;

/** The marker of a state change in a `charla_messages` payload. */
export const STATE_CHANGED = 'state';

/** The owner's linked chat of a bot. */
export interface LinkedChat {
  channel: string;
  chatId: string;
}

/** A bot's turn state: its owner's linked chat and, per follower (`channel\0chatId`), paused-until ms. */
interface BotState {
  linked: LinkedChat | null;
  paused: Map<string, number>;
}

const followerKey = (channel: string, chatId: string) => `${channel}\u0000${chatId}`;

/** A `charla_messages` event that may carry the state-change marker. */
type StateEvent = MessagesEvent & { conversations?: string };

/** The per-bot cache of the conversations middleware's reads (see the module comment). */
export class TurnStateCache {
  private readonly entries = new Map<string, { at: number; value: Promise<BotState> }>();
  /** True once this process hears changes: before that, every turn reads the database. */
  private listening = false;

  /**
   * @param db the store with the plugin's tables.
   * @param now the plugin's clock (pauses ending before it are not loaded).
   * @param ttlMs how long an entry is trusted, ms (real time).
   */
  constructor(
    private readonly db: ConversationsDb,
    private readonly now: () => Date,
    private readonly ttlMs = TURN_STATE_TTL_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  /** One load per bot: the owner's linked chat and the pauses still running (two reads in one statement). */
  private load(chatbotId: string): Promise<BotState> {
    const hit = this.entries.get(chatbotId);
    if (hit && this.clock() - hit.at < this.ttlMs) return hit.value;
    const value = this.read(chatbotId);
    if (!this.listening) return value;
    this.entries.set(chatbotId, { at: this.clock(), value });
    value.catch(() => {
      if (this.entries.get(chatbotId)?.value === value) this.entries.delete(chatbotId);
    });
    if (this.entries.size > 10_000) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  /** Reads a bot's state from the database. */
  private async read(chatbotId: string): Promise<BotState> {
    const { rows } = await sql<{ channel: string | null; chat_id: string | null; until: Date | null }>`
        select channel, chat_id, null::timestamptz as until from conversation_owner_phones
          where chatbot_id = ${chatbotId} and chat_id is not null
        union all
        select channel, chat_id, paused_until as until from conversation_state
          where chatbot_id = ${chatbotId} and paused_until > ${this.now()}`.execute(this.db);
    const state: BotState = { linked: null, paused: new Map() };
    for (const r of rows) {
      if (r.until === null) state.linked = { channel: r.channel!, chatId: r.chat_id! };
      else state.paused.set(followerKey(r.channel!, r.chat_id!), new Date(r.until).getTime());
    }
    return state;
  }

  /** The owner's linked chat of the bot, or null. */
  async linkedChat(chatbotId: string): Promise<LinkedChat | null> {
    return (await this.load(chatbotId)).linked;
  }

  /** True while the owner has taken over this follower's conversation at `at`. */
  async paused(key: ConversationKey, at: Date): Promise<boolean> {
    const until = (await this.load(key.chatbotId)).paused.get(followerKey(key.channel, key.chatId));
    return until !== undefined && until > at.getTime();
  }

  /** Forgets one bot's state (it changed). */
  invalidate(chatbotId: string): void {
    this.entries.delete(chatbotId);
  }

  /** Forgets every bot's state (changes may have been missed). */
  clear(): void {
    this.entries.clear();
  }

  /**
   * Call after a write that changed a bot's pauses or linked chat: forgets it here and tells every
   * process (NOTIFY; the owner's live screen of that conversation refreshes as for a message).
   * @param key the conversation the change is about (the follower, or the owner's linked chat).
   */
  async changed(key: ConversationKey): Promise<void> {
    this.invalidate(key.chatbotId);
    const payload: StateEvent = {
      chatbotId: key.chatbotId,
      channel: key.channel,
      userId: key.chatId,
      conversations: STATE_CHANGED,
    };
    await sql`select pg_notify(${MESSAGES_CHANNEL}, ${JSON.stringify(payload)})`.execute(this.db);
  }

  /**
   * Listens for other processes' changes (and this one's own echo). Until the subscription is in
   * place nothing is cached (a change meanwhile would go unheard); after it stops, neither.
   * @returns the function that stops listening.
   */
  async listen(ctx: Pick<PluginContext, 'onMessages'>): Promise<() => Promise<void>> {
    const stop = await ctx.onMessages(
      (e) => {
        if ((e as StateEvent).conversations === STATE_CHANGED) this.invalidate(e.chatbotId);
      },
      { onResume: () => this.clear() },
    );
    this.listening = true;
    return async () => {
      this.listening = false;
      this.clear();
      await stop();
    };
  }
}
