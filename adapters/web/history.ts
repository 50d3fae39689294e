/**
 * A returning web visitor's thread (issue 27 §3): `GET /api/web/:key/history` gives the widget or the
 * IALanding the visitor's recent messages (theirs, the bot's and the owner's) when a new tab or the
 * next day opens the chat, so the conversation shows again from the server and not only from what a
 * tab kept. The visitor id is the browser's random id per key (localStorage): only that browser
 * knows it. Rate-limited like the pushed routes (pushed.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { ChannelContext } from '../../engine/registry/index.ts';
import { Attachment } from '../../engine/schemas.ts';
import type { Database } from '../../engine/store/database.ts';
import { refuseTooMany, type StoredWebMessage, storedWebMessage } from './pushed.ts';
import { personLabel } from './queries.ts';
import { botByKey } from './shared.ts';

/** At most this many messages come back (the newest). */
export const MAX_HISTORY = 40;

/** The newest messages of a web visitor's conversation (widget and IALanding), oldest first. */
export async function visitorHistory(
  db: Kysely<Database>,
  q: { chatbotId: string; visitorId: string },
): Promise<StoredWebMessage[]> {
  const rows = await db
    .selectFrom('conversation_messages')
    .select(['id', 'text', 'sender', 'created_at', 'meta'])
    .where('chatbot_id', '=', q.chatbotId)
    .where('channel', 'in', ['web', 'ialanding'])
    .where('user_id', '=', q.visitorId)
    .orderBy('id', 'desc')
    .limit(MAX_HISTORY)
    .execute();
  return rows.map(storedWebMessage).reverse();
}

/** One message of the thread: `from` who wrote it, `name` the person for the owner's (else null). */
export const HistoryMessage = z.object({
  id: z.string(),
  text: z.string(),
  from: z.enum(['user', 'bot', 'owner']),
  name: z.string().nullable(),
  attachment: Attachment.nullable(),
  /** A broadcast (issue 27 §5): shown as the business's, not a takeover. */
  broadcast: z.boolean(),
  at: z.string(),
});

/** `GET /api/web/:key/history`. */
export function historyRoutes(ctx: () => ChannelContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/web/:key/history',
      {
        ...refuseTooMany(ctx),
        schema: {
          summary: 'A returning web visitor’s recent messages',
          description:
            'Issue 27 §3: the newest 40 messages of this visitor’s conversation with the bot (the widget’s and the ' +
            'IALanding’s), oldest first: theirs (`user`), the bot’s and the owner’s (`name` is the person the visitor ' +
            'sees). `last` is the newest id: the widget shows pushed messages after it. CORS: any origin. 404 for an ' +
            'unknown key; 429 beyond the limit per address and key (as `/pushed`).',
          tags: ['web'],
          params: z.object({ key: z.string().min(1).max(100) }),
          querystring: z.object({ visitorId: z.string().min(1).max(128) }),
          response: {
            200: z.object({ messages: z.array(HistoryMessage), last: z.string().nullable() }),
          },
        },
      },
      async (req) => {
        const bot = await botByKey(ctx(), req.params.key);
        const rows = await visitorHistory(ctx().db, { chatbotId: bot.id, visitorId: req.query.visitorId });
        const person = await personLabel(ctx().db, bot);
        const messages = rows
          .filter((r) => r.text || r.attachment)
          .map((r) => ({
            id: r.id,
            text: r.text,
            from: r.sender,
            name: r.sender === 'owner' ? person : null,
            attachment: r.attachment,
            broadcast: r.broadcast,
            at: r.created_at.toISOString(),
          }));
        return { messages, last: rows.at(-1)?.id ?? null };
      },
    );
  };
}
