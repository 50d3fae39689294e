/**
 * Messages pushed to web visitors (issue 12: reminders; issue 14: owners' replies and broadcasts).
 * A website visitor has no connection Charla can write to, so the web channel "pushes" by storing:
 * `ctx.send` (engine/channels/outbound.ts) stores the message in the visitor's conversation (no
 * `reply_to`: nobody asked for it). An open widget or IALanding gets it within about a second on
 * its live stream (`GET /api/web/:key/pushed/stream`, pushed-stream.ts; issue 26 §2, issue 27 §3)
 * and asks `GET /api/web/:key/pushed` (here) when it opens, every 60 s as a backstop, and every
 * 15 s when the stream cannot open. The visitor id is the widget's random id per browser and key:
 * only that browser asks for it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { AppError } from '../../engine/errors.ts';
import { addressKey, admit } from '../../engine/rate-limits.ts';
import type { ChannelContext } from '../../engine/registry/index.ts';
import { Attachment } from '../../engine/schemas.ts';
import type { Database } from '../../engine/store/database.ts';
import { personLabel } from './queries.ts';
import { botByKey, PUBLIC_CORS } from './shared.ts';
import { TOO_MANY_TEXTS } from './texts.ts';

/** How far back a widget that never asked before gets pushed messages, ms (48 h). */
export const PUSHED_LOOKBACK_MS = 48 * 3_600_000;
/** At most this many messages per answer (and per read of the stream). */
export const MAX_PUSHED = 20;

/** The pushed messages of one web visitor after a cursor (a message id), oldest first. */
export async function pushedMessages(
  db: Kysely<Database>,
  q: { chatbotId: string; visitorId: string; after: string | null },
): Promise<StoredWebMessage[]> {
  let query = db
    .selectFrom('conversation_messages')
    .select(['id', 'text', 'sender', 'created_at', 'meta'])
    .where('chatbot_id', '=', q.chatbotId)
    // The widget's conversation and the IALanding's share the browser's visitor id.
    .where('channel', 'in', ['web', 'ialanding'])
    .where('user_id', '=', q.visitorId)
    .where('sender', 'in', ['bot', 'owner'])
    .where('reply_to', 'is', null);
  // Rows carry the database's clock (`created_at` default now()), so the look-back uses it too.
  query = q.after
    ? query.where('id', '>', q.after)
    : query.where('created_at', '>=', sql<Date>`now() - make_interval(secs => ${PUSHED_LOOKBACK_MS / 1000})`);
  const rows = await query.orderBy('id').limit(MAX_PUSHED).execute();
  return rows.map(storedWebMessage);
}

/** A stored message of a web visitor's conversation as the web routes read it. */
export interface StoredWebMessage {
  id: string;
  text: string;
  sender: 'user' | 'bot' | 'owner';
  created_at: Date;
  /** The file sent with it (an owner's file, a bot's SEND), when it had one. */
  attachment: z.infer<typeof Attachment> | null;
  /** A broadcast's copy (issue 27 §5): the business's announcement, not a takeover. */
  broadcast: boolean;
}

/** A `conversation_messages` row (with `meta`) as {@link StoredWebMessage}. */
export function storedWebMessage(r: {
  id: string | number | bigint;
  text: string;
  sender: 'user' | 'bot' | 'owner';
  created_at: Date | string;
  meta: unknown;
}): StoredWebMessage {
  const meta = r.meta as { attachment?: unknown; broadcast?: unknown } | null;
  const attachment = Attachment.safeParse(meta?.attachment);
  return {
    id: String(r.id),
    text: r.text,
    sender: r.sender,
    created_at: new Date(r.created_at),
    attachment: attachment.success ? attachment.data : null,
    broadcast: meta?.broadcast === true,
  };
}

/** The query of the pushed routes: the browser's visitor id and the last message id it has. */
export const PushedQuery = z.object({
  visitorId: z.string().min(1).max(128),
  after: z
    .string()
    .regex(/^\d{1,20}$/)
    .optional(),
});

/**
 * One pushed message as the widget reads it (`from` bot or owner; `at` ISO time). Issue 27 §3: an
 * owner's message carries `name`, the person the visitor sees (the owner's name, else "Equipo de
 * <business>" in the bot's language; null for the bot), and its file as `attachment`.
 */
export const PushedMessage = z.object({
  id: z.string(),
  text: z.string(),
  from: z.enum(['bot', 'owner']),
  name: z.string().nullable(),
  attachment: Attachment.nullable(),
  /** A broadcast (issue 27 §5): shown as the business's, the header does not say a person answers. */
  broadcast: z.boolean(),
  at: z.string(),
});

/** A stored pushed message as {@link PushedMessage}; `person` labels the owner's (see {@link personLabel}). */
export function pushedView(row: StoredWebMessage, person: string): z.infer<typeof PushedMessage> {
  const owner = row.sender === 'owner';
  return {
    id: row.id,
    text: row.text,
    from: owner ? 'owner' : 'bot',
    name: owner ? person : null,
    attachment: row.attachment,
    broadcast: row.broadcast,
    at: row.created_at.toISOString(),
  };
}

/**
 * The options the pushed routes share: CORS for any origin, no session, and the `pushedAddress`
 * limit per key and address (open widgets of other sites behind the same address do not add up);
 * beyond it 429 with `Retry-After` and a translated text.
 */
export function refuseTooMany(ctx: () => ChannelContext) {
  return {
    ...PUBLIC_CORS,
    preHandler: async (req: FastifyRequest<{ Params: { key: string } }>, reply: FastifyReply) => {
      const checks = [{ limit: 'pushedAddress' as const, key: `${req.params.key}:${addressKey(req.ip)}` }];
      if (!(await admit(ctx().limits, reply, checks))) throw new AppError('RATE_LIMITED', TOO_MANY_TEXTS.es);
    },
  };
}

/** `GET /api/web/:key/pushed`. */
export function pushedRoutes(ctx: () => ChannelContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/web/:key/pushed',
      {
        ...refuseTooMany(ctx),
        schema: {
          summary: 'Messages the business sent a web visitor (reminders, replies)',
          description:
            'Issue 12 and 14: what was sent to this visitor without them asking (a reservation reminder, an owner’s reply), ' +
            'after the message id `after` (or from the last 48 h), oldest first, at most 20. The widget and the IALanding ' +
            'get these live from `GET /api/web/:key/pushed/stream` (issue 26 §2) and ask here when they open, every 60 s as ' +
            'a backstop, and every 15 s when the stream cannot open; they keep `last` for the next time. CORS: any origin. ' +
            '404 for an unknown key; 429 beyond the limit per address and key.',
          tags: ['web'],
          params: z.object({ key: z.string().min(1).max(100) }),
          querystring: PushedQuery,
          response: {
            200: z.object({ messages: z.array(PushedMessage), last: z.string().nullable() }),
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
        const person = await personLabel(ctx().db, bot);
        return {
          messages: rows.map((r) => pushedView(r, person)),
          last: rows.at(-1)?.id ?? req.query.after ?? null,
        };
      },
    );
  };
}
