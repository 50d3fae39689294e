/**
 * The owner's phone link routes (issue 14 §2, phone.ts), scoped to the session's owner and bot:
 *
 * - `GET    /api/conversations/:chatbotId/phone`: whether the owner's Telegram is linked;
 * - `POST   /api/conversations/:chatbotId/phone`: a new one-time deep link to link it;
 * - `DELETE /api/conversations/:chatbotId/phone`: unlinks it (no more forwards).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PluginContext } from '../../engine/registry/index.ts';
import { BotParams, ownedBotOf } from '../../engine/registry/owner-routes.ts';
import { PhoneLinkAnswer, PhoneStatus } from './api.ts';
import { createLinkCode, findOwnerPhone, unlinkOwnerPhone } from './phone.ts';
import type { ConversationsDb } from './queries.ts';
import type { TurnStateCache } from './turn-state.ts';

const ErrorBody = z.object({ error: z.string(), code: z.string().optional() });

/** The phone-link routes above; an unlink is told to `turnState` so every process stops forwarding. */
export function phoneRoutes(
  ctx: PluginContext,
  db: ConversationsDb,
  turnState: TurnStateCache,
): FastifyPluginAsyncZod {
  /** The owner's bot, or 404 with the spec's bot-not-found text (the registry's bot port). */
  const ownedBot = ownedBotOf(ctx);
  const probe = (method: 'GET' | 'POST' | 'DELETE') => ({
    owner: { probe: (a: { botId: string }) => ({ method, url: `/api/conversations/${a.botId}/phone` }) },
  });

  return async (app) => {
    app.get(
      '/api/conversations/:chatbotId/phone',
      {
        config: probe('GET'),
        schema: {
          summary: 'Whether the owner’s own Telegram is linked to the bot',
          description:
            'Issue 14 §2: `telegram` says whether the bot has Telegram connected (needed to link); `linked` and `linkedAt` ' +
            'whether the owner’s chat gets the followers’ messages.',
          tags: ['conversations'],
          params: BotParams,
          response: { 200: PhoneStatus, 404: ErrorBody },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        const phone = await findOwnerPhone(db, bot.id);
        return {
          telegram: Boolean(bot.telegram_token && bot.telegram_username),
          linked: Boolean(phone?.chat_id),
          linkedAt: phone?.linked_at ? new Date(phone.linked_at).toISOString() : null,
        };
      },
    );

    app.post(
      '/api/conversations/:chatbotId/phone',
      {
        config: probe('POST'),
        schema: {
          summary: 'A one-time deep link that links the owner’s Telegram',
          description:
            'Issue 14 §2: answers `{url, expiresAt}`: `https://t.me/<bot>?start=own-…`, valid 15 minutes and once. Opening ' +
            'it in Telegram and pressing Start links that chat (replacing a linked one). 409 `noTelegram` when the bot has ' +
            'no Telegram connected.',
          tags: ['conversations'],
          params: BotParams,
          response: { 200: PhoneLinkAnswer, 404: ErrorBody, 409: ErrorBody },
        },
      },
      async (req, reply) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        if (!bot.telegram_token || !bot.telegram_username)
          return reply.code(409).send({ error: 'Conecta primero tu bot de Telegram.', code: 'noTelegram' });
        const { code, expiresAt } = await createLinkCode(db, bot.id, ctx.now());
        const username = bot.telegram_username.replace(/^@/, '');
        return { url: `https://t.me/${username}?start=${code}`, expiresAt: expiresAt.toISOString() };
      },
    );

    app.delete(
      '/api/conversations/:chatbotId/phone',
      {
        config: probe('DELETE'),
        schema: {
          summary: 'Unlinks the owner’s Telegram',
          description: 'Issue 14 §2: the owner’s chat stops getting the followers’ messages.',
          tags: ['conversations'],
          params: BotParams,
          response: { 200: z.object({ linked: z.literal(false) }), 404: ErrorBody },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        const was = await unlinkOwnerPhone(db, bot.id);
        if (was) await turnState.changed({ chatbotId: bot.id, channel: was.channel, chatId: was.chatId });
        return { linked: false as const };
      },
    );
  };
}
