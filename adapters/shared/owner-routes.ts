/**
 * What the owner's channel routes (adapters/telegram/routes.ts, adapters/whatsapp/routes.ts) share
 * (spec 000 §7; issue 25 §2, one "require the owner's bot" instead of a copy per channel): finding
 * the signed-in owner's bot, the cross-tenant probes every owner route declares (engine/http/auth.ts
 * `OwnerScope`), and the two routes every connected channel has in the same shape: read the
 * configuration (`GET /api/get-<channel>-config`) and disconnect (`POST /api/remove-<channel>`).
 */
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { AppError, botNotFound } from '../../engine/errors.ts';
import type { ChannelContext } from '../../engine/registry/index.ts';
import type { Chatbot } from '../../engine/store/database.ts';
import { findNewestChatbot, findOwnedChatbot } from '../../engine/store/queries/chatbots.ts';
import { BotRef, errorBodies, Removed } from './channel-api.ts';

/**
 * The bot `chatbotId` of the request's signed-in owner.
 * @throws AppError UNAUTHORIZED without a session ("Debes iniciar sesión."), BAD_REQUEST with
 *   `missing` when no id is given, NOT_FOUND when the bot is not this owner's (another owner's id
 *   answers 404, never 403).
 */
export async function requireOwnedBot(
  ctx: ChannelContext,
  req: FastifyRequest,
  chatbotId: string | undefined,
  missing: string,
): Promise<Chatbot> {
  const owner = await ctx.requireOwner(req);
  if (!chatbotId) throw new AppError('BAD_REQUEST', missing);
  const bot = await findOwnedChatbot(ctx.db, owner.id, chatbotId);
  if (!bot) throw botNotFound();
  return bot;
}

/**
 * The bot `chatbotId` of the request's signed-in owner, or without an id the owner's newest bot
 * (the spec's `get-*-config` routes).
 * @throws AppError UNAUTHORIZED without a session, NOT_FOUND when there is no such bot of this owner.
 */
export async function ownedOrNewestBot(
  ctx: ChannelContext,
  req: FastifyRequest,
  chatbotId: string | undefined,
): Promise<Chatbot> {
  const owner = await ctx.requireOwner(req);
  const bot = chatbotId
    ? await findOwnedChatbot(ctx.db, owner.id, chatbotId)
    : await findNewestChatbot(ctx.db, owner.id);
  if (!bot) throw botNotFound();
  return bot;
}

/** An owner route's config whose cross-tenant probe is `GET <url>?chatbotId=<another owner's bot>`. */
export function probeGet(url: string): FastifyContextConfig {
  return {
    owner: { probe: (a) => ({ method: 'GET', url: `${url}?chatbotId=${encodeURIComponent(a.botId)}` }) },
  };
}

/** An owner route's config whose cross-tenant probe is `POST <url>` with `{ chatbotId, ...json }`. */
export function probePost(url: string, json: Record<string, unknown> = {}): FastifyContextConfig {
  return { owner: { probe: (a) => ({ method: 'POST', url, json: { chatbotId: a.botId, ...json } }) } };
}

/** What {@link channelConfigRoute} and {@link channelRemoveRoute} need to know about the channel. */
interface ChannelRoute {
  /** The route's path, e.g. `/api/get-telegram-config`. */
  url: string;
  /** The OpenAPI tag (the channel id). */
  tag: string;
  summary: string;
  description: string;
  /** The adapter's runtime (after `start`). */
  context(): ChannelContext;
}

/**
 * `GET <url>`: the configuration of the owner's bot (`chatbotId`, or the owner's newest bot), as
 * `answer` gives it; 200 with `response`, 401 without a session, 404 without such a bot.
 */
export function channelConfigRoute<T extends z.ZodTypeAny>(
  route: ChannelRoute & { response: T; answer(bot: Chatbot): Promise<z.input<T>> },
): FastifyPluginAsyncZod {
  // The type provider cannot resolve a reply type from a generic schema: the route sees it as any
  // schema, and `answer`'s signature keeps callers to `response`'s input (the serializer checks it).
  const response: z.ZodTypeAny = route.response;
  return async (app) => {
    app.get(
      route.url,
      {
        config: probeGet(route.url),
        schema: {
          summary: route.summary,
          description: route.description,
          tags: [route.tag],
          querystring: BotRef,
          response: { 200: response, ...errorBodies(401, 404) },
        },
      },
      async (req) => route.answer(await ownedOrNewestBot(route.context(), req, req.query.chatbotId)),
    );
  };
}

/**
 * `POST <url>` with `{ chatbotId }`: disconnects the channel of the owner's bot. The connection is
 * stopped (`connections.disconnect(…, 'removed')`), then `forget` clears what is stored, the event
 * is logged, and the answer is `{ success: true, message }`. 400 with `missing` without an id, 401
 * without a session, 404 for another owner's bot. Disconnecting a bot without the channel is not
 * an error.
 */
export function channelRemoveRoute(
  route: ChannelRoute & {
    /** The text of a 400 without a bot id. */
    missing: string;
    /** Stops the bot's connection in this process. */
    disconnect(chatbotId: string): Promise<void>;
    /** Clears the stored credentials (and whatever else the channel keeps). */
    forget(chatbotId: string): Promise<void>;
    /** The log line, e.g. 'telegram bot disconnected by its owner'. */
    logMessage: string;
    /** The answer's `message`, e.g. 'Bot de Telegram desconectado.'. */
    message: string;
  },
): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      route.url,
      {
        config: probePost(route.url),
        schema: {
          summary: route.summary,
          description: route.description,
          tags: [route.tag],
          body: BotRef,
          response: { 200: Removed, ...errorBodies(400, 401, 404) },
        },
      },
      async (req) => {
        const ctx = route.context();
        const bot = await requireOwnedBot(ctx, req, req.body.chatbotId, route.missing);
        await route.disconnect(bot.id);
        await route.forget(bot.id);
        // The other nodes drop their connection too, at once (issue 26 §2).
        await ctx.reconcile(bot.id);
        ctx.log.info({ chatbotId: bot.id }, route.logMessage);
        return { success: true as const, message: route.message };
      },
    );
  };
}
