/**
 * Sends handed to the node that can make them (issue 26 §2). Some channels keep one connection per
 * bot that exactly one Charla process may hold at a time (a WhatsApp linked device: one Baileys
 * socket, under a lease). A send asked of another node — an owner's reply arriving at the other
 * node behind the balancer, a broadcast or reminder job claimed there — used to fail with "not
 * connected". Now that node stores the send in `channel_handoffs` and NOTIFYs; the holder, which
 * LISTENs, claims it (one UPDATE: only one holder can), sends it and records the outcome; the
 * asking node, LISTENing for outcomes, answers its caller with the holder's receipt or error.
 *
 * Nothing is lost when no node holds the connection for a while (a restart): the row stays
 * pending, and the next holder sends it when it connects ({@link Handoffs.sweep}); the caller,
 * after `timeoutMs`, is answered "queued" (no receipt) rather than refused. A claimed send whose
 * holder died mid-send is not retried (it may have gone out): it stays `sending`, visible to the
 * operator, never sent twice.
 */
import type { Kysely } from 'kysely';
import type { Logger } from '../logger.ts';
import type { OutboundMessage, SendReceipt } from '../registry/index.ts';
import type { Database } from '../store/database.ts';
import {
  claimHandoff,
  findHandoff,
  type HandoffOutcome,
  insertHandoff,
  pendingHandoffIds,
  settleHandoff,
} from '../store/queries/handoffs.ts';
import { notifyMany } from '../store/queries/messages.ts';

/** NOTIFY channel of new handoffs; payload `<channel>\t<chatbot id>\t<row id>`. */
export const HANDOFF_CHANNEL = 'charla_handoffs';
/** NOTIFY channel of finished handoffs; payload the row id. */
export const HANDOFF_DONE_CHANNEL = 'charla_handoffs_done';

/** Subscribes to a NOTIFY channel (Store.listen); returns the unsubscribe. */
export type Listen = (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>;

/** A message as stored in a handoff row: the voice note's bytes as base64. */
interface StoredMessage extends Omit<OutboundMessage, 'voice'> {
  voice?: { data: string; mime: 'audio/ogg'; durationS?: number } | null;
}

function toStored(message: OutboundMessage): StoredMessage {
  const { voice, ...rest } = message;
  return voice ? { ...rest, voice: { ...voice, data: voice.data.toString('base64') } } : rest;
}

function fromStored(message: StoredMessage): OutboundMessage {
  const { voice, ...rest } = message;
  return voice ? { ...rest, voice: { ...voice, data: Buffer.from(voice.data, 'base64') } } : rest;
}

/** Sends a message on this node's own connection of a bot; undefined when it holds none. */
export type LocalSender = (
  chatbotId: string,
) => ((chatId: string, message: OutboundMessage) => Promise<SendReceipt | undefined>) | undefined;

/** Handoffs of one channel in this process: ask (any node) and serve (the holder). */
export class Handoffs {
  private readonly waiters = new Map<string, () => void>();
  private stops: Array<() => Promise<void>> = [];

  constructor(
    private readonly deps: { db: Kysely<Database>; listen: Listen; log: Logger },
    private readonly channel: string,
    private readonly local: LocalSender,
  ) {}

  /** Starts listening for handoffs to serve and for outcomes to report. */
  async start(): Promise<void> {
    this.stops.push(
      await this.deps.listen(HANDOFF_CHANNEL, (payload) => {
        const [channel, chatbotId, id] = payload.split('\t');
        if (channel === this.channel && chatbotId && id && this.local(chatbotId)) void this.serveOne(id);
      }),
      await this.deps.listen(HANDOFF_DONE_CHANNEL, (id) => this.waiters.get(id)?.()),
    );
  }

  /** Stops listening. */
  async stop(): Promise<void> {
    const stops = this.stops;
    this.stops = [];
    await Promise.allSettled(stops.map((s) => s()));
  }

  /**
   * Hands a send to the node holding the bot's connection and waits for it, up to `timeoutMs`.
   * @returns the holder's receipt; undefined when it is still queued after `timeoutMs` (it goes
   *   out when a holder is there).
   * @throws Error with the holder's message when the channel refused it.
   */
  async handOff(
    chatbotId: string,
    chatId: string,
    message: OutboundMessage,
    timeoutMs = 20_000,
  ): Promise<SendReceipt | undefined> {
    const { db } = this.deps;
    const id = await insertHandoff(db, {
      channel: this.channel,
      chatbotId,
      chatId,
      message: toStored(message),
    });
    const done = new Promise<void>((resolve) => {
      const timer = setTimeout(finish, timeoutMs);
      const poll = setInterval(() => void this.outcome(id).then((o) => o && finish()), 1000);
      function finish() {
        clearTimeout(timer);
        clearInterval(poll);
        resolve();
      }
      this.waiters.set(id, finish);
    });
    await notifyMany(db, [{ channel: HANDOFF_CHANNEL, payload: `${this.channel}\t${chatbotId}\t${id}` }]);
    await done;
    this.waiters.delete(id);
    const outcome = await this.outcome(id);
    if (!outcome) {
      this.deps.log.warn(
        { chatbotId, handoff: id },
        'send handed off and still queued: it goes out when a node holds the connection',
      );
      return undefined;
    }
    if (outcome.status === 'failed') throw new Error(outcome.error ?? 'the holding node could not send');
    return outcome.receipt ?? undefined;
  }

  /** Sends what was handed off for a bot while no node held it (call when this node connects it). */
  async sweep(chatbotId: string): Promise<void> {
    const pending = await pendingHandoffIds(this.deps.db, this.channel, chatbotId);
    for (const id of pending) await this.serveOne(id);
  }

  private async outcome(
    id: string,
  ): Promise<{ status: 'sent' | 'failed'; receipt: SendReceipt | null; error: string | null } | undefined> {
    const row = await findHandoff(this.deps.db, id);
    if (!row || (row.status !== 'sent' && row.status !== 'failed')) return undefined;
    return { status: row.status, receipt: (row.receipt as SendReceipt | null) ?? null, error: row.error };
  }

  /** Claims one pending handoff (only one node can) and sends it here. */
  private async serveOne(id: string): Promise<void> {
    const { db, log } = this.deps;
    try {
      const claimed = await claimHandoff(db, id);
      if (!claimed) return;
      const send = this.local(claimed.chatbot_id);
      let update: HandoffOutcome;
      if (!send)
        update = { status: 'pending' }; // lost the connection meanwhile: the next holder sends it
      else
        try {
          const receipt = await send(
            claimed.chat_id,
            fromStored(claimed.message as unknown as StoredMessage),
          );
          update = { status: 'sent', receipt: receipt ?? null };
        } catch (err) {
          update = { status: 'failed', error: (err as Error).message };
        }
      await settleHandoff(db, id, update);
      if (update.status !== 'pending') await notifyMany(db, [{ channel: HANDOFF_DONE_CHANNEL, payload: id }]);
    } catch (err) {
      log.warn({ err, handoff: id }, 'could not serve a handed-off send');
    }
  }
}
