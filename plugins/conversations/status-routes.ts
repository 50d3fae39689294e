/**
 * `POST /api/conversations/:chatbotId/status` (issue 27 §4.4): the owner marks one conversation
 * open, needing a person, or resolved. Scoped to the session's owner and one of their bots.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PluginContext } from '../../engine/registry/index.ts';
import { BotParams, ownedBotOf } from '../../engine/registry/owner-routes.ts';
import { ConversationStatus, ConversationsErrorBody, StatusBody } from './api.ts';
import { setConversationStatus } from './status.ts';

/** The route above. */
export function statusRoutes(ctx: PluginContext): FastifyPluginAsyncZod {
  const ownedBot = ownedBotOf(ctx);
  return async (app) => {
    app.post(
      '/api/conversations/:chatbotId/status',
      {
        config: {
          owner: {
            probe: (a: { botId: string }) => ({
              method: 'POST',
              url: `/api/conversations/${a.botId}/status`,
              json: { channel: 'telegram', userId: '1', status: 'resolved' },
            }),
          },
        },
        schema: {
          summary: 'Sets a conversation’s state',
          description:
            'Issue 27 §4.4: `status` is `open`, `needs_person` (the owner should answer) or `resolved`. The list shows ' +
            'it and filters by it (`GET /api/conversations/:chatbotId?status=`). 400 for another value.',
          tags: ['conversations'],
          params: BotParams,
          body: StatusBody,
          response: { 200: z.object({ status: ConversationStatus }), 404: ConversationsErrorBody },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        const { channel, userId, status } = req.body;
        await setConversationStatus(
          ctx.db,
          { chatbotId: bot.id, channel, chatId: userId },
          status,
          ctx.now(),
        );
        return { status };
      },
    );
  };
}
