/**
 * The owner's message to a follower (the reply and voice routes, routes.ts): it goes out through the
 * follower's channel with sender `owner`, and the bot is paused for that follower first, so an answer
 * arriving meanwhile gets no bot reply (spec 001 §2; issue 14).
 */
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { OutboundMessage, PluginContext } from '../../engine/registry/index.ts';
import { DEFAULT_QUIET_MINUTES } from './api.ts';
import { type ConversationsDb, findState, saveState } from './queries.ts';
import type { TurnStateCache } from './turn-state.ts';

/**
 * Builds the owner's send: 409 `cannotReply` when the channel cannot push, 502 `channel` with the
 * channel's words when it refuses (nothing stored then), else `{ pausedUntil }` (ISO time).
 */
export function ownerDelivery(ctx: PluginContext, db: ConversationsDb, turnState: TurnStateCache) {
  /**
   * Sends the owner's message to a follower and pauses the bot for them (see the reply route):
   * 409 `cannotReply`, 502 `channel` with the channel's words, nothing stored on failure.
   */
  return async (
    chatbotId: string,
    channel: string,
    userId: string,
    message: OutboundMessage,
    reply: FastifyReply,
    log: FastifyBaseLogger,
  ) => {
    if (ctx.capabilities(channel)?.push !== true)
      return reply
        .code(409)
        .send({ error: 'Este seguidor no puede recibir mensajes por este canal.', code: 'cannotReply' });
    const key = { chatbotId, channel, chatId: userId };
    // Paused before sending: a follower's answer arriving meanwhile does not get a bot reply.
    const state = await findState(db, key);
    const quiet = state?.quiet_minutes ?? DEFAULT_QUIET_MINUTES;
    const until = new Date(ctx.now().getTime() + quiet * 60_000);
    await saveState(db, key, { paused_until: until }, ctx.now());
    await turnState.changed(key);
    try {
      await ctx.send({ chatbotId, channel, chatId: userId }, message, { sender: 'owner' });
    } catch (err) {
      log.warn({ err, channel }, 'owner message refused by the channel');
      return reply
        .code(502)
        .send({ error: err instanceof Error ? err.message : String(err), code: 'channel' });
    }
    return { pausedUntil: until.toISOString() };
  };
}
