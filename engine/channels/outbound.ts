/**
 * Messages to followers that go out through their channel's adapter: a turn's reply (adapters
 * call {@link Outbox.transform} before sending it), and messages nobody just asked for (a reminder,
 * an owner's reply, a broadcast) through {@link Outbox.send}. Either way the plugins' outbound
 * transformers run first (voice replies, effects), and the engine names no channel: the adapter is
 * found by the follower's channel id and its capabilities decide what it can carry.
 */
import type { Kysely } from 'kysely';
import type { BotCache } from '../conversation/cache.ts';
import { turnBotOf } from '../conversation/engine.ts';
import { AppError, botNotFound } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type {
  DeliveryTarget,
  InboundMessage,
  OutboundMessage,
  Registry,
  SendOptions,
  SendReceipt,
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

export class Outbox {
  constructor(private readonly deps: OutboxDeps) {}

  /**
   * Passes a message for a follower through the plugins' outbound transformers.
   * @throws AppError NOT_FOUND for an unknown bot; BAD_REQUEST for an unknown channel.
   */
  async transform(
    message: OutboundMessage,
    to: DeliveryTarget & { inbound?: InboundMessage },
  ): Promise<OutboundMessage> {
    const adapter = this.deps.registry.adapters.get(to.channel);
    if (!adapter) throw new AppError('BAD_REQUEST', `No existe el canal ${to.channel}.`);
    const loaded = await this.deps.cache.get(to.chatbotId);
    if (!loaded) throw botNotFound();
    return this.deps.registry.transformOutbound(message, {
      bot: turnBotOf(loaded.bot),
      channel: to.channel,
      chatId: to.chatId,
      capabilities: adapter.capabilities,
      ...(to.inbound ? { inbound: to.inbound } : {}),
    });
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
    const adapter = this.deps.registry.adapters.get(target.channel);
    if (!adapter) throw new AppError('BAD_REQUEST', `No existe el canal ${target.channel}.`);
    if (!adapter.capabilities.push)
      throw new AppError('BAD_REQUEST', `El canal ${target.channel} no puede enviar mensajes por sí solo.`);
    const transformed = await this.transform(message, target);
    const receipt: SendReceipt = {
      messageIds: (await adapter.send(target.chatbotId, target.chatId, transformed))?.messageIds ?? [],
    };
    if (options.store === false) return receipt;
    await insertOutgoing(this.deps.db, {
      chatbotId: target.chatbotId,
      channel: target.channel,
      userId: target.chatId,
      sender: options.sender ?? 'bot',
      // A voice note alone (an owner's recording) shows as 🎤 in the conversation.
      text: transformed.text || (transformed.voice ? VOICE_NOTE_TEXT : ''),
      meta: transformed.attachment
        ? {
            attachment: transformed.attachment,
            archivosEnviados: [],
            archivos: { action: 'NONE', lista: [] },
            offline: false,
            failed: false,
          }
        : null,
    });
    this.deps.effects.record({
      chatbotId: target.chatbotId,
      channel: target.channel,
      userId: target.chatId,
      replies: 0,
    });
    return receipt;
  }
}
