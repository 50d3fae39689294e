/**
 * The owner's Telegram routes (spec 000 §7; issue 5): connect a bot by its token, disconnect
 * it, and read its configuration with the connection's health. All are owner routes: the bot
 * must be the signed-in owner's, another owner's id answers 404.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, botNotFound } from '../../engine/errors.ts';
import { PRINTABLE_ASCII } from '../../engine/schemas.ts';
import { findNewestChatbot, findOwnedChatbot } from '../../engine/store/queries/chatbots.ts';
import { describeError, isTokenRejected, plainApi } from './bot-api.ts';
import type { TelegramAdapter } from './index.ts';
import { botUsingTelegramBot, setTelegramConnection } from './queries.ts';
import { TELEGRAM_ERRORS } from './texts.ts';

const ErrorBody = z.object({ error: z.string() });

/** A connection's health as the dashboard shows it (engine/registry ConnectionHealth). */
const Health = z.object({
  mode: z.string(),
  state: z.enum(['connected', 'error', 'paused', 'disconnected']),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  lastUpdateAt: z.string().nullable(),
  pendingUpdates: z.number().nullable(),
});

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

/** Body of `POST /api/remove-telegram` (spec 000 §7). */
export const RemoveTelegramBody = z.object({
  userId: z.string().optional(),
  chatbotId: z.string().max(100).optional(),
});

/** Bot API token: the bot's numeric id, a colon, then 30+ characters (as @BotFather issues them). */
const TOKEN_FORMAT = /^\d{3,}:[\w-]{30,}$/;

export function telegramApiRoutes(adapter: () => TelegramAdapter): FastifyPluginAsyncZod {
  return async (app) => {
    const ownedBot = async (
      req: Parameters<ReturnType<TelegramAdapter['context']>['requireOwner']>[0],
      id?: string,
    ) => {
      const ctx = adapter().context();
      const owner = await ctx.requireOwner(req);
      if (!id) throw new AppError('BAD_REQUEST', TELEGRAM_ERRORS.missingData);
      const bot = await findOwnedChatbot(ctx.db, owner.id, id);
      if (!bot) throw botNotFound();
      return bot;
    };

    app.post(
      '/api/verify-telegram',
      {
        config: {
          owner: {
            probe: (a) => ({
              method: 'POST',
              url: '/api/verify-telegram',
              json: {
                chatbotId: a.botId,
                telegramToken: '123456:abcdefghijklmnopqrstuvwxyz0123456789',
                telegramUsername: 'x_bot',
              },
            }),
          },
        },
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
            400: ErrorBody,
            401: ErrorBody,
            404: ErrorBody,
            409: ErrorBody,
            502: ErrorBody,
          },
        },
      },
      async (req) => {
        const telegram = adapter();
        const ctx = telegram.context();
        const bot = await ownedBot(req, req.body.chatbotId);
        const token = req.body.telegramToken.trim();
        const username = req.body.telegramUsername.trim().replace(/^@/, '');
        if (!token || !username) throw new AppError('BAD_REQUEST', TELEGRAM_ERRORS.required);
        if (!TOKEN_FORMAT.test(token)) throw new AppError('BAD_REQUEST', TELEGRAM_ERRORS.badTokenFormat);
        let me: Awaited<ReturnType<ReturnType<typeof plainApi>['getMe']>>;
        try {
          me = await plainApi(token, telegram.settings().TELEGRAM_API_ROOT, 15).getMe();
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
        await telegram.disconnect(bot.id, 'removed');
        await setTelegramConnection(ctx.db, bot.id, {
          token: ctx.secrets.encrypt(token),
          username: me.username,
          botId: String(me.id),
        });
        ctx.log.info({ chatbotId: bot.id, telegramUsername: me.username }, 'telegram bot connected');
        await ctx.reconcile(bot.id);
        return { telegramUsername: me.username, health: await telegram.health(bot.id) };
      },
    );

    app.post(
      '/api/remove-telegram',
      {
        config: {
          owner: {
            probe: (a) => ({ method: 'POST', url: '/api/remove-telegram', json: { chatbotId: a.botId } }),
          },
        },
        schema: {
          summary: 'Disconnect the Telegram bot',
          description:
            'Spec 000 §7. Stops the bot (deletes its webhook or stops its poller) and clears the stored ' +
            'token and username. Disconnecting a bot without Telegram is not an error.',
          tags: ['telegram'],
          body: RemoveTelegramBody,
          response: {
            200: z.object({ success: z.literal(true), message: z.string() }),
            400: ErrorBody,
            401: ErrorBody,
            404: ErrorBody,
          },
        },
      },
      async (req) => {
        const telegram = adapter();
        const ctx = telegram.context();
        const bot = await ownedBot(req, req.body.chatbotId);
        await telegram.disconnect(bot.id, 'removed');
        await setTelegramConnection(ctx.db, bot.id, { token: null, username: null, botId: null });
        ctx.log.info({ chatbotId: bot.id }, 'telegram bot disconnected by its owner');
        return { success: true as const, message: 'Bot de Telegram desconectado.' };
      },
    );

    app.get(
      '/api/get-telegram-config',
      {
        config: {
          owner: {
            probe: (a) => ({
              method: 'GET',
              url: `/api/get-telegram-config?chatbotId=${encodeURIComponent(a.botId)}`,
            }),
          },
        },
        schema: {
          summary: 'The Telegram configuration and connection health',
          description:
            'Spec 000 §7 (`telegramUsername`), plus the connection health (issue 5): mode, state ' +
            '(connected, error, paused for lack of days, disconnected), the last error Telegram or the ' +
            'poller reported, and the updates Telegram still holds. Without `chatbotId` the owner’s newest bot.',
          tags: ['telegram'],
          querystring: z.object({ userId: z.string().optional(), chatbotId: z.string().max(100).optional() }),
          response: {
            200: z.object({
              telegramUsername: z.string().nullable(),
              connected: z.boolean(),
              health: Health,
            }),
            401: ErrorBody,
            404: ErrorBody,
          },
        },
      },
      async (req) => {
        const telegram = adapter();
        const ctx = telegram.context();
        const owner = await ctx.requireOwner(req);
        const bot = req.query.chatbotId
          ? await findOwnedChatbot(ctx.db, owner.id, req.query.chatbotId)
          : await findNewestChatbot(ctx.db, owner.id);
        if (!bot) throw botNotFound();
        return {
          telegramUsername: bot.telegram_username,
          connected: Boolean(bot.telegram_token),
          health: await telegram.health(bot.id),
        };
      },
    );
  };
}
