/**
 * A short-lived cache of bots and their files, so a turn reads them from memory instead of two
 * queries. Writes in this process invalidate at once; other processes see a change within
 * `ttlMs` (default 5,000 ms), or at once when the cache {@link BotCache.listen}s: then every
 * {@link BotCache.invalidate} also sends a PostgreSQL NOTIFY on {@link BOTS_CHANNEL} (payload:
 * the bot id) and every listening process forgets that bot, and forgets every bot when its LISTEN
 * connection comes back after a loss. What a turn derives from a loaded bot alone (the prompt's
 * head, the files as plugins see them: turn/bot-parts.ts) is keyed by the loaded object, so it is
 * forgotten with it.
 */
import { type Kysely, sql } from 'kysely';
import type { Chatbot, ChatbotFile, Database } from '../store/database.ts';
import { findChatbotWithPlan, type OwnerPlan } from '../store/queries/chatbots.ts';
import { listFiles } from '../store/queries/files.ts';

/** NOTIFY channel of bot changes (a bot's settings, files or owner's plan); the payload is its id. */
export const BOTS_CHANNEL = 'charla_bots';

/** A bot with its files, as the engine reads them. */
export interface LoadedBot {
  bot: Chatbot;
  /** Files in display order (newest first, as spec 000 §7 lists them). */
  files: ChatbotFile[];
  /** The owner's plan and expiry (whether the bot may answer followers: engine/auth/profiles.ts `isPaid`). */
  owner: OwnerPlan;
}

/** Subscribes to a NOTIFY channel (engine/store/connect.ts `Store.listen`). */
export type ListenFn = (
  channel: string,
  onPayload: (payload: string) => void,
  options?: { onResume?: () => void },
) => Promise<() => Promise<void>>;

export class BotCache {
  private readonly entries = new Map<string, { at: number; value: Promise<LoadedBot | undefined> }>();
  private broadcast = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly ttlMs = 5_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The bot and its files, or undefined when no bot has this id. */
  get(chatbotId: string): Promise<LoadedBot | undefined> {
    const hit = this.entries.get(chatbotId);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.value;
    const value = (async () => {
      const found = await findChatbotWithPlan(this.db, chatbotId);
      if (!found) return undefined;
      return { ...found, files: await listFiles(this.db, chatbotId) };
    })();
    this.entries.set(chatbotId, { at: this.now(), value });
    value.catch(() => this.entries.delete(chatbotId));
    if (this.entries.size > 10_000) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  /**
   * Forgets a bot (after its config or files change); when listening, every other process too
   * (NOTIFY, sent in the background: a failure is only logged by the store, the TTL still bounds it).
   */
  invalidate(chatbotId: string): void {
    this.entries.delete(chatbotId);
    if (this.broadcast)
      sql`select pg_notify(${BOTS_CHANNEL}, ${chatbotId})`.execute(this.db).catch(() => undefined);
  }

  /**
   * Listens for other processes' invalidations on {@link BOTS_CHANNEL}, and from then on sends
   * this process's own (see {@link invalidate}).
   * @returns the function that stops listening.
   */
  async listen(listen: ListenFn): Promise<() => Promise<void>> {
    const stop = await listen(BOTS_CHANNEL, (id) => this.entries.delete(id), {
      onResume: () => this.entries.clear(),
    });
    this.broadcast = true;
    return async () => {
      this.broadcast = false;
      await stop();
    };
  }
}
