/**
 * Messages pushed to web visitors (issue 12: reminders; issue 14: owners' replies and broadcasts).
 * A website visitor has no connection Charla can write to, so the web channel "pushes" by storing:
 * `ctx.send` (engine/channels/outbound.ts) stores the message in the visitor's conversation (no
 * `reply_to`: nobody asked for it) and the widget fetches what is new when it opens and every 15 s
 * while it is open (`GET /api/web/:key/pushed`). The visitor id is the widget's random id per
 * browser and key: only that browser asks for it.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { AppError } from '../../engine/errors.ts';
import { addressKey, admit } from '../../engine/rate-limits.ts';
import type { ChannelContext } from '../../engine/registry/index.ts';
import type { Database } from '../../engine/store/database.ts';
import { botByKey, PUBLIC_CORS } from './shared.ts';
import { TOO_MANY_TEXTS } from './texts.ts';

/** How far back a widget that never asked before gets pushed messages, ms (48 h). */
export const PUSHED_LOOKBACK_MS = 48 * 3_600_000;
/** At most this many messages per answer. */
const MAX_PUSHED = 20;

/** The pushed messages of one web visitor after a cursor (a message id), oldest first. */
export async function pushedMessages(
  db: Kysely<Database>,
  q: { chatbotId: string; visitorId: string; after: string | null },
): Promise<Array<{ id: string; text: string; sender: 'user' | 'bot' | 'owner'; created_at: Date }>> {
  let query = db
    .selectFrom('conversation_messages')
    .select(['id', 'text', 'sender', 'created_at'])
    .where('chatbot_id', '=', q.chatbotId)
    .where('channel', '=', 'web')
    .where('user_id', '=', q.visitorId)
    .where('sender', 'in', ['bot', 'owner'])
    .where('reply_to', 'is', null);
  // Rows carry the database's clock (`created_at` default now()), so the look-back uses it too.
  query = q.after
    ? query.where('id', '>', q.after)
    : query.where('created_at', '>=', sql<Date>`now() - make_interval(secs => ${PUSHED_LOOKBACK_MS / 1000})`);
  const rows = await query.orderBy('id').limit(MAX_PUSHED).execute();
  return rows.map((r) => ({ ...r, id: String(r.id), created_at: new Date(r.created_at) }));
}

/** `GET /api/web/:key/pushed`. */
export function pushedRoutes(ctx: () => ChannelContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/web/:key/pushed',
      {
        ...PUBLIC_CORS,
        // Per key and address: open widgets of other sites behind the same address do not add up.
        preHandler: async (req, reply) => {
          const checks = [
            { limit: 'pushedAddress' as const, key: `${req.params.key}:${addressKey(req.ip)}` },
          ];
          if (!(await admit(ctx().limits, reply, checks)))
            throw new AppError('RATE_LIMITED', TOO_MANY_TEXTS.es);
        },
        schema: {
          summary: 'Messages the business sent a web visitor (reminders, replies)',
          description:
            'Issue 12 and 14: what was sent to this visitor without them asking (a reservation reminder, an owner’s reply), ' +
            'after the message id `after` (or from the last 48 h), oldest first, at most 20. The widget asks when it opens ' +
            'and every 15 s while open, and keeps `last` for the next time. CORS: any origin. 404 for an unknown key.',
          tags: ['web'],
          params: z.object({ key: z.string().min(1).max(100) }),
          querystring: z.object({
            visitorId: z.string().min(1).max(128),
            after: z
              .string()
              .regex(/^\d{1,20}$/)
              .optional(),
          }),
          response: {
            200: z.object({
              messages: z.array(
                z.object({
                  id: z.string(),
                  text: z.string(),
                  from: z.enum(['bot', 'owner']),
                  at: z.string(),
                }),
              ),
              last: z.string().nullable(),
            }),
          },
        },
      },
      async (req) => {
        const bot = await botByKey(ctx(), req.params.key);
        const rows = await pushedMessages(ctx().db, {
          chatbotId: bot.id,
          visitorId: req.query.visitorId,
          after: req.query.after ?? null,
        });
        return {
          messages: rows.map((r) => ({
            id: r.id,
            text: r.text,
            from: r.sender === 'owner' ? ('owner' as const) : ('bot' as const),
            at: r.created_at.toISOString(),
          })),
          last: rows.at(-1)?.id ?? req.query.after ?? null,
        };
      },
    );
  };
}
