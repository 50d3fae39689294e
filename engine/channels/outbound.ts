/**
 * The one way out to a follower (issue 25 §1): {@link Outbox.deliver} passes a message through the
 * plugins' outbound transformers (voice replies, effects), hands it to the channel's adapter and,
 * for a message nobody just asked for, stores it in the conversation. A turn's reply reaches it
 * through the dispatcher (engine/conversation/dispatch.ts, the engine having stored the turn);
 * reminders, owners' replies and broadcasts through {@link Outbox.send}. The engine names no
 * channel: the adapter is found by id and its capabilities decide what it can carry.
 */
import type { Kysely } from 'kysely';
import type { BotCache } from '../conversation/cache.ts';
import { turnBotOf } from '../conversation/engine.ts';
import { AppError, botNotFound } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type {
  ChannelAdapter,
  DeliveryTarget,
  InboundMessage,
  OutboundMessage,
  Registry,
  SendOptions,
  SendReceipt,
  TurnBot,
} from '../registry/index.ts';
import type { TurnSideEffects } from '../store/batcher.ts';
import type { Database } from '../store/database.ts';
import { insertOutgoing } from '../store/queries/messages.ts';

/** What the outbox needs (the engine's bot cache and batched side effects). */
export interface OutboxDeps {
  db: Kysely<Database>;
  registry: Registry;
  cache: BotCache;
  effects: TurnSideEffects;
  log: Logger;
}

/** What a conversation stores for a voice note sent without words. */
export const VOICE_NOTE_TEXT = '🎤';

/** Options of {@link Outbox.deliver}. */
export interface DeliverOptions {
  /** The follower's message being answered (a turn's reply), for the transformers and the adapter. */
  inbound?: InboundMessage;
  /** False: sent as it is, without the outbound transformers (the `/start` greeting). Default true. */
  transform?: boolean;
  /**
   * `send`: call the adapter's `send`; `return`: only transform (the caller answers a request
   * with it). Default `send`.
   */
  deliver?: 'send' | 'return';
  /**
   * Store the sent message in the conversation as `bot` or `owner` (`ai_response` false) and
   * tell live listeners; omitted for a turn's reply, which the engine stored with the turn.
   */
  record?: 'bot' | 'owner';
  /** The recorded message is a broadcast's copy (`SendOptions.broadcast`, issue 27 §5). */
  broadcast?: boolean;
}

/**
 * Messages to followers through their channel's adapter (one per app, cli/app.ts): the turn's
 * reply from the dispatcher, and plugins' `ctx.send`.
 */
export class Outbox {
  constructor(private readonly deps: OutboxDeps) {}

  /**
   * The adapter of a channel (or the one serving it, `alsoServes`: `ialanding` → web, issue 27 §3).
   * @throws AppError BAD_REQUEST for an unknown channel.
   */
  adapter(channel: string): ChannelAdapter {
    const adapter = this.deps.registry.adapterFor(channel);
    if (!adapter) throw new AppError('BAD_REQUEST', `No existe el canal ${channel}.`);
    return adapter;
  }

  /**
   * The bot as transformers and adapters see it (from the engine's bot cache).
   * @throws AppError NOT_FOUND for an unknown bot.
   */
  async bot(chatbotId: string): Promise<TurnBot> {
    const loaded = await this.deps.cache.get(chatbotId);
    if (!loaded) throw botNotFound();
    return turnBotOf(loaded.bot);
  }

  /** Passes a message for a follower of `adapter`'s channel through the plugins' transformers. */
  private transformFor(
    adapter: ChannelAdapter,
    bot: TurnBot,
    message: OutboundMessage,
    to: { chatId: string; inbound?: InboundMessage },
  ): Promise<OutboundMessage> {
    return this.deps.registry.transformOutbound(message, {
      bot,
      channel: adapter.id,
      chatId: to.chatId,
      capabilities: adapter.capabilities,
      ...(to.inbound ? { inbound: to.inbound } : {}),
    });
  }

  /**
   * The one send path: transforms (unless `transform` is false), sends through `adapter` (unless
   * `deliver` is `return`), then stores the message when `record` says who it is from. Nothing
   * is stored when the channel refuses.
   * @returns the message as it went out and the channel's message ids (null for `return`).
   * @throws AppError NOT_FOUND for an unknown bot; the adapter's error when sending fails.
   */
  async deliver(
    adapter: ChannelAdapter,
    target: { chatbotId: string; chatId: string; channel?: string },
    message: OutboundMessage,
    options: DeliverOptions = {},
  ): Promise<{ message: OutboundMessage; receipt: SendReceipt | null }> {
    const bot = await this.bot(target.chatbotId);
    const inbound = options.inbound;
    const out =
      options.transform === false
        ? message
        : await this.transformFor(adapter, bot, message, {
            chatId: target.chatId,
            ...(inbound ? { inbound } : {}),
          });
    if (options.deliver === 'return') return { message: out, receipt: null };
    const sent = await adapter.send(target.chatbotId, target.chatId, out, {
      bot,
      ...(inbound ? { inbound } : {}),
      ...(options.record ? { sender: options.record } : {}),
    });
    const receipt: SendReceipt = { messageIds: sent?.messageIds ?? [] };
    // Stored under the conversation's own channel (an IALanding visitor's stays `ialanding`).
    if (options.record)
      await this.record(target.channel ?? adapter.id, target, out, options.record, options.broadcast);
    return { message: out, receipt };
  }

  /**
   * Sends a message to one follower through their channel, after the outbound transformers, then
   * stores it in the conversation (sender `bot` or `owner`, `ai_response` false) and tells live
   * listeners. Nothing is stored when the channel refuses. Resolves with the channel's message ids.
   * @throws AppError BAD_REQUEST when the channel cannot push messages (capabilities.push false)
   *   or is unknown; NOT_FOUND for an unknown bot; the adapter's error when sending fails.
   */
  async send(
    target: DeliveryTarget,
    message: OutboundMessage,
    options: SendOptions = {},
  ): Promise<SendReceipt> {
    const adapter = this.adapter(target.channel);
    if (!adapter.capabilities.push)
      throw new AppError('BAD_REQUEST', `El canal ${target.channel} no puede enviar mensajes por sí solo.`);
    const { receipt } = await this.deliver(adapter, target, message, {
      ...(options.store === false ? {} : { record: options.sender ?? 'bot' }),
      ...(options.broadcast ? { broadcast: true } : {}),
    });
    return receipt ?? { messageIds: [] };
  }

  /** Stores a sent message that answers no follower message, and tells live listeners. */
  private async record(
    channel: string,
    target: { chatbotId: string; chatId: string },
    sent: OutboundMessage,
    sender: 'bot' | 'owner',
    broadcast = false,
  ): Promise<void> {
    const mark = broadcast ? { broadcast: true as const } : {};
    await insertOutgoing(this.deps.db, {
      chatbotId: target.chatbotId,
      channel,
      userId: target.chatId,
      sender,
      // A voice note alone (an owner's recording) shows as 🎤 in the conversation.
      text: sent.text || (sent.voice ? VOICE_NOTE_TEXT : ''),
      meta:
        sent.attachment || broadcast
          ? {
              attachment: sent.attachment ?? null,
              archivosEnviados: [],
              archivos: { action: 'NONE', lista: [] },
              offline: false,
              failed: false,
              ...mark,
            }
          : null,
    });
    this.deps.effects.record({ chatbotId: target.chatbotId, channel, userId: target.chatId, replies: 0 });
  }
}
