/**
 * Writes that every turn would otherwise make on shared rows, batched off the turn's path:
 * the bot's `responses_count` (one UPDATE of the bot row per turn makes concurrent turns of one bot
 * wait on its row lock) and the NOTIFY to realtime listeners (Postgres serialises committing
 * transactions that NOTIFY). Both are flushed every `intervalMs` (default 250 ms) and on close; a
 * crash loses at most that window of counts, never a message.
 */
import type { Kysely } from 'kysely';
import type { Logger } from '../logger.ts';
import { isTestChannel } from '../test-channels.ts';
import type { Database } from './database.ts';
import { addResponses, MESSAGES_CHANNEL, notifyMany } from './queries/messages.ts';

export class TurnSideEffects {
  private counts = new Map<string, number>();
  private events = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: Logger,
    intervalMs = 250,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  /**
   * Records stored messages of one conversation: `replies` responses for the bot (default 1; 0 for
   * a silent turn or an owner's message; always 0 on the owner's test chats, issue 27 §4.5) and an
   * event for its listeners.
   */
  record(turn: { chatbotId: string; channel: string; userId: string; replies?: number }): void {
    const replies = isTestChannel(turn.channel) ? 0 : (turn.replies ?? 1);
    if (replies > 0) this.counts.set(turn.chatbotId, (this.counts.get(turn.chatbotId) ?? 0) + replies);
    const payload = JSON.stringify({ chatbotId: turn.chatbotId, channel: turn.channel, userId: turn.userId });
    this.events.set(payload, payload);
  }

  /** Writes what is pending; errors are logged and the counts kept for the next flush. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const counts = this.counts;
      const events = [...this.events.values()];
      this.counts = new Map();
      this.events = new Map();
      for (const [chatbotId, n] of counts) {
        try {
          await addResponses(this.db, chatbotId, n);
        } catch (err) {
          this.counts.set(chatbotId, (this.counts.get(chatbotId) ?? 0) + n);
          this.log.warn({ err, chatbotId }, 'could not update responses_count; retrying later');
        }
      }
      try {
        await notifyMany(
          this.db,
          events.map((payload) => ({ channel: MESSAGES_CHANNEL, payload })),
        );
      } catch (err) {
        this.log.warn({ err }, 'could not notify realtime listeners');
      }
    });
    return this.flushing;
  }

  /** Stops the timer and flushes. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
