/**
 * The owner's message to a follower (the reply and voice routes, routes.ts): it goes out through the
 * follower's channel with sender `owner`, and the bot is paused for that follower first, so an answer
 * arriving meanwhile gets no bot reply (spec 001 §2; issue 14). Issue 27 §3: a voice note to a web or
 * IALanding visitor is kept in the file storage and sent as an audio attachment the widget plays
 * (owner-files.ts); Telegram and WhatsApp get it as a native voice note, as before.
 */
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { OutboundMessage, PluginContext } from '../../engine/registry/index.ts';
import { type LangCode, languageCode } from '../../engine/schemas.ts';
import { DEFAULT_QUIET_MINUTES } from './api.ts';
import { STORED_CHANNELS, storeOwnerFile } from './owner-files.ts';
import { type ConversationKey, type ConversationsDb, findState, saveState } from './queries.ts';
import type { TurnStateCache } from './turn-state.ts';

/**
 * The name an owner's voice note has as a file, in the bot's language (the widget labels its player
 * with it); letters, digits and `-` only, as storage keys want.
 */
export const OWNER_VOICE_NAMES: Record<LangCode, string> = {
  es: 'nota-de-voz.ogg',
  en: 'voice-note.ogg',
  fr: 'note-vocale.ogg',
  de: 'sprachnachricht.ogg',
  it: 'nota-vocale.ogg',
  ru: 'golosovoe-soobshchenie.ogg',
  hi: 'voice-note.ogg',
};

/** The bot an owner's message is sent for (a dashboard route's owned bot, a turn's bot). */
export interface OwnerBot {
  id: string;
  user_id: string;
  idioma: string | null;
}

/**
 * Sends the owner's message to one follower as the owner's and pauses the bot for them first, so
 * an answer arriving meanwhile gets no bot reply. A voice note to a web or IALanding visitor is
 * kept in the file storage and goes as an audio attachment (issue 27 §3). Used by the inbox routes
 * ({@link ownerDelivery}) and the owner's linked Telegram chat (index.ts).
 * @returns when the pause ends.
 * @throws ChannelRefused when the channel refuses (nothing stored then); the storage's error.
 */
export async function sendAsOwner(
  ctx: PluginContext,
  db: ConversationsDb,
  turnState: TurnStateCache,
  bot: OwnerBot,
  key: ConversationKey,
  message: OutboundMessage,
): Promise<Date> {
  const state = await findState(db, key);
  const quiet = state?.quiet_minutes ?? DEFAULT_QUIET_MINUTES;
  const until = new Date(ctx.now().getTime() + quiet * 60_000);
  await saveState(db, key, { paused_until: until }, ctx.now());
  await turnState.changed(key);
  let out = message;
  if (message.voice && STORED_CHANNELS.includes(key.channel) && ctx.storage) {
    const attachment = await storeOwnerFile(ctx, db, {
      to: key,
      ownerId: bot.user_id,
      data: message.voice.data,
      mime: message.voice.mime,
      name: OWNER_VOICE_NAMES[languageCode(bot.idioma)],
      type: 'audio',
    });
    out = { text: message.text, attachment };
  }
  try {
    await ctx.send(key, out, { sender: 'owner' });
  } catch (err) {
    throw new ChannelRefused(err);
  }
  return until;
}

/** The follower's channel refused the owner's message ({@link sendAsOwner}); `message` is its words. */
export class ChannelRefused extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason));
    this.name = 'ChannelRefused';
  }
}

/**
 * Builds the owner's send: 409 `cannotReply` when the channel cannot push, 502 `channel` with the
 * channel's words when it refuses (nothing stored then), else `{ pausedUntil }` (ISO time).
 */
export function ownerDelivery(ctx: PluginContext, db: ConversationsDb, turnState: TurnStateCache) {
  /**
   * Sends the owner's message to a follower of `bot` and pauses the bot for them (see the reply
   * route): 409 `cannotReply`, 502 `channel` with the channel's words, nothing stored on failure
   * (a stored file stays, listed for the owner's export and deletion).
   * @throws the storage's error when a web visitor's voice note cannot be kept (500).
   */
  return async (
    bot: OwnerBot,
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
    const key = { chatbotId: bot.id, channel, chatId: userId };
    let until: Date;
    try {
      until = await sendAsOwner(ctx, db, turnState, bot, key, message);
    } catch (err) {
      if (!(err instanceof ChannelRefused)) throw err;
      log.warn({ err: err.reason, channel }, 'owner message refused by the channel');
      return reply.code(502).send({ error: err.message, code: 'channel' });
    }
    return { pausedUntil: until.toISOString() };
  };
}
