/**
 * `POST /channels/telegram/:chatbotId`: Telegram's webhook for one bot (issue 5; Bot API
 * setWebhook). The request must carry the bot's secret in `X-Telegram-Bot-Api-Secret-Token`
 * (compared in constant time); anything else is refused with 401 and stored nowhere. A valid
 * update is stored in the durable inbox and only then acknowledged with 200, so Telegram
 * redelivers whatever a crash kept from being stored; a redelivered `update_id` is stored once.
 *
 * A bot that exists but is not connected in this process (paused, its token removed, held by
 * another process) answers 503, so Telegram retries; an id that is no bot answers 404 (issue 24 §7).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Update } from 'grammy/types';
import { z } from 'zod';
import { sameSecret } from '../shared/secrets.ts';
import { telegramCredentials } from './queries.ts';
import type { TelegramAdapter } from './types.ts';
import { chatIdOf } from './updates.ts';

/** The part of an Update the route checks; the rest is stored as it came (Bot API `Update`). */
const UpdateBody = z.looseObject({ update_id: z.number().int().nonnegative() });

/** The Bot API's header for the webhook secret (setWebhook `secret_token`). */
export const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/**
 * A bot's webhook secret (setWebhook `secret_token`): derived from the instance secret, the
 * chatbot and the Telegram bot, so nothing is stored and a Telegram bot that was replaced (another
 * token) cannot post as the new one even if its webhook could not be deleted.
 */
export function telegramWebhookSecret(
  secrets: { derive(purpose: string, value: string): string },
  chatbotId: string,
  telegramBotId: string,
): string {
  return secrets.derive('telegram-webhook', `${chatbotId}:${telegramBotId}`);
}

/** Chatbot ids are `gen_random_uuid()` texts; anything longer or with a NUL is no bot, unqueried. */
const MAX_ID_LENGTH = 100;

export function webhookRoutes(adapter: () => TelegramAdapter): FastifyPluginAsync {
  return async (app) => {
    app.post<{ Params: { chatbotId: string } }>(
      '/:chatbotId',
      {
        config: { public: true },
        schema: { hide: true },
        bodyLimit: 1_048_576,
      },
      async (req, reply) => {
        const telegram = adapter();
        const { chatbotId } = req.params;
        const conn = telegram.connection(chatbotId);
        if (!conn) {
          // Issue 24 §7: an id that is no bot is 404; a bot not connected here (paused, removed,
          // another process's) is 503 so Telegram retries later, while the supervisor deletes the
          // webhook or sets it again.
          const known =
            chatbotId.length <= MAX_ID_LENGTH &&
            !chatbotId.includes('\0') &&
            (await telegramCredentials(telegram.context().db, chatbotId)) !== undefined;
          if (!known) return reply.code(404).send({ error: 'no such bot' });
          return reply.code(503).send({ error: 'bot not connected' });
        }
        const header = req.headers[SECRET_HEADER];
        if (typeof header !== 'string' || !sameSecret(header, telegram.webhookSecret(chatbotId, conn.botId)))
          return reply.code(401).send({ error: 'bad secret token' });
        const parsed = UpdateBody.safeParse(req.body);
        if (!parsed.success) return reply.code(400).send({ error: 'not a Telegram update' });
        const update = parsed.data as unknown as Update;
        await telegram.context().inbox.accept({
          channel: 'telegram',
          chatbotId,
          updateKey: `${conn.botId}:${update.update_id}`,
          chatId: chatIdOf(update),
          payload: parsed.data,
        });
        telegram.touch(chatbotId);
        return reply.code(200).send({});
      },
    );
  };
}
