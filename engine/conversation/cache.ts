/**
 * A short-lived cache of bots and their files, so a turn reads them from memory instead of two
 * queries. Writes in this process invalidate at once; other processes see a change within
 * `ttlMs` (default 5,000 ms).
 */
import type { Kysely } from 'kysely';
import type { Chatbot, ChatbotFile, Database } from '../store/database.ts';
import { findChatbotWithPlan, type OwnerPlan } from '../store/queries/chatbots.ts';
import { listFiles } from '../store/queries/files.ts';

/** A bot with its files, as the engine reads them. */
export interface LoadedBot {
  bot: Chatbot;
  /** Files in display order (newest first, as spec 000 §7 lists them). */
  files: ChatbotFile[];
  /** The owner's plan and expiry (whether the bot may answer followers: engine/auth/profiles.ts `isPaid`). */
  owner: OwnerPlan;
}

export class BotCache {
  private readonly entries = new Map<string, { at: number; value: Promise<LoadedBot | undefined> }>();

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

  /** Forgets a bot (after its config or files change). */
  invalidate(chatbotId: string): void {
    this.entries.delete(chatbotId);
  }
}
