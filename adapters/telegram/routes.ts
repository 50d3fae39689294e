/**
 * The owner's Telegram routes (spec 000 §7; issue 5): connect a bot by its token, disconnect
 * it, and read its configuration with the connection's health. All are owner routes: the bot
 * must be the signed-in owner's, another owner's id answers 404.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../engine/errors.ts';
import { PRINTABLE_ASCII } from '../../engine/schemas.ts';
import { errorBodies, Health } from '../shared/channel-api.ts';
import { ownerHealth } from '../shared/channel-errors.ts';
import {
  channelConfigRoute,
  channelRemoveRoute,
  probePost,
  requireOwnedBot,
} from '../shared/owner-routes.ts';
import { describeError, isTokenRejected, plainApi } from './bot-api.ts';
import { botUsingTelegramBot, setTelegramConnection } from './queries.ts';
import { TELEGRAM_ERRORS } from './texts.ts';
import type { TelegramAdapter } from './types.ts';

/**
 * Body of `POST /api/verify-telegram` (spec 000 §7). `userId` is ignored: the owner is the session's.
 * The token is printable ASCII (issue 24 §7): it goes into the Bot API's URL, and a character
 * outside it is no token @BotFather issues.
 */
export const VerifyTelegramBody = z.object({
  telegramToken: z.string().max(200).regex(PRINTABLE_ASCII, TELEGRAM_ERRORS.badTokenFormat).default(''),
  telegramUsername: z.string().max(100).default(''),
  userId: z.string().optional(),
  chatbotId: z.string().max(100).optional(),
});

/** Bot API token: the bot's numeric id, a colon, then 30+ characters (as @BotFather issues them). */
const TOKEN_FORMAT = /^\d{3,}:[\w-]{30,}$/;

/** The owner's Telegram routes (mounted at the root: the spec's `/api/...` paths). */
export function telegramApiRoutes(adapter: () => TelegramAdapter): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/verify-telegram',
      {
        config: probePost('/api/verify-telegram', {
          telegramToken: '123456:abcdefghijklmnopqrstuvwxyz0123456789',
          telegramUsername: 'x_bot',
        }),
        schema: {
          summary: 'Connect a Telegram bot by its token',
          description:
            'Spec 000 §7. Checks the token with getMe, requires the entered username (without @) to be the ' +
            'token’s bot, refuses a Telegram bot already connected to another chatbot, stores the token ' +
            'encrypted (AES-256-GCM) and starts the bot (webhook or long polling). Returns the username and ' +
            'the connection health. 400 with the reason (format, token refused, username mismatch), 409 when ' +
            'the bot is in use, 502 when Telegram cannot be reached.',
          tags: ['telegram'],
          body: VerifyTelegramBody,
          response: {
            200: z.object({ telegramUsername: z.string(), health: Health }),
            ...errorBodies(400, 401, 404, 409, 502),
          },
        },
      },
      async (req) => {
        const telegram = adapter();
        const ctx = telegram.context();
        const bot = await requireOwnedBot(ctx, req, req.body.chatbotId, TELEGRAM_ERRORS.missingData);
        const token = req.body.telegramToken.trim();
        const username = req.body.telegramUsername.trim().replace(/^@/, '');
        if (!token || !username) throw new AppError('BAD_REQUEST', TELEGRAM_ERRORS.required);
        if (!TOKEN_FORMAT.test(token)) throw new AppError('BAD_REQUEST', TELEGRAM_ERRORS.badTokenFormat);
        let me: Awaited<ReturnType<Awaited<ReturnType<typeof plainApi>>['getMe']>>;
        try {
          me = await (await plainApi(token, telegram.settings().TELEGRAM_API_ROOT, 15)).getMe();
        } catch (err) {
          if (isTokenRejected(err)) throw new AppError('BAD_REQUEST', TELEGRAM_ERRORS.tokenRejected);
          ctx.log.warn({ chatbotId: bot.id, error: describeError(err) }, 'getMe failed');
          throw new AppError('UPSTREAM', TELEGRAM_ERRORS.unreachable);
        }
        if (me.username.toLowerCase() !== username.toLowerCase())
          throw new AppError(
            'BAD_REQUEST',
            TELEGRAM_ERRORS.usernameMismatch.replace('{actual}', me.username),
          );
        if (await botUsingTelegramBot(ctx.db, String(me.id), bot.id))
          throw new AppError('CONFLICT', TELEGRAM_ERRORS.inUse);
        // Reconfigure: the old connection stops (its webhook is deleted) before the new one starts.
        await telegram.connections.disconnect(bot.id, 'removed');
        await setTelegramConnection(ctx.db, bot.id, {
          token: ctx.secrets.encrypt(token),
          username: me.username,
          botId: String(me.id),
        });
        ctx.log.info({ chatbotId: bot.id, telegramUsername: me.username }, 'telegram bot connected');
        await ctx.reconcile(bot.id);
        return {
          telegramUsername: me.username,
          health: ownerHealth(await telegram.connections.health(bot.id)),
        };
      },
    );

    await app.register(
      channelRemoveRoute({
        url: '/api/remove-telegram',
        tag: 'telegram',
        summary: 'Disconnect the Telegram bot',
        description:
          'Spec 000 §7. Stops the bot (deletes its webhook or stops its poller) and clears the stored ' +
          'token and username. Disconnecting a bot without Telegram is not an error.',
        context: () => adapter().context(),
        missing: TELEGRAM_ERRORS.missingData,
        disconnect: (chatbotId) => adapter().connections.disconnect(chatbotId, 'removed'),
        forget: (chatbotId) =>
          setTelegramConnection(adapter().context().db, chatbotId, {
            token: null,
            username: null,
            botId: null,
          }),
        logMessage: 'telegram bot disconnected by its owner',
        message: 'Bot de Telegram desconectado.',
      }),
    );

    await app.register(
      channelConfigRoute({
        url: '/api/get-telegram-config',
        tag: 'telegram',
        summary: 'The Telegram configuration and connection health',
        description:
          'Spec 000 §7 (`telegramUsername`), plus the connection health (issue 5): mode, state ' +
          '(connected, error, paused for lack of days, disconnected), the last error Telegram or the ' +
          'poller reported, and the updates Telegram still holds. Without `chatbotId` the owner’s newest bot.',
        context: () => adapter().context(),
        response: z.object({
          telegramUsername: z.string().nullable(),
          connected: z.boolean(),
          health: Health,
        }),
        answer: async (bot) => ({
          telegramUsername: bot.telegram_username,
          connected: Boolean(bot.telegram_token),
          health: ownerHealth(await adapter().connections.health(bot.id)),
        }),
      }),
    );
  };
}
