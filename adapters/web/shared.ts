/**
 * What the web channel's route modules share: CORS for the public routes, HTML escaping, and the
 * rule of availability (the web service switch and the owner's days, spec 001 §4).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isPaid } from '../../engine/auth/profiles.ts';
import { AppError } from '../../engine/errors.ts';
import type { ChannelContext } from '../../engine/registry/index.ts';
import { languageCode } from '../../engine/schemas.ts';
import type { Chatbot } from '../../engine/store/database.ts';
import { findChatbotByKey } from '../../engine/store/queries/chatbots.ts';
import { UNAVAILABLE_TEXTS, WEB_ERRORS } from './texts.ts';

export { ErrorBody } from './contract.ts';

/** Sets the CORS headers of the public web routes: any site may call them, without credentials. */
export function cors(reply: FastifyReply): void {
  reply.header('access-control-allow-origin', '*');
  reply.header('access-control-allow-methods', 'GET, POST, OPTIONS');
  // `last-event-id`: a reconnecting EventSource's resumption (pushed-stream.ts).
  reply.header('access-control-allow-headers', 'content-type, accept, idempotency-key, last-event-id');
  reply.header('access-control-max-age', '86400');
}

/** The options of a public route any website calls: no session, and CORS headers on every answer. */
export const PUBLIC_CORS = {
  config: { public: true as const },
  onRequest: async (_req: unknown, reply: FastifyReply) => cors(reply),
};

/** Escapes text for an HTML attribute or element. */
export function html(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Whether a bot's web chat is available: the web service is on and the owner has days (or a paid
 * plan); otherwise the text visitors read, in the bot's language (they are not told why). `owner`
 * is the owner's plan when the caller read it with the bot (the bot cache, at most 5 s old).
 */
export async function availability(
  ctx: ChannelContext,
  bot: Chatbot,
  owner?: { plan: string | null; expires_at: Date | string | null },
): Promise<{ available: boolean; unavailableText: string | null }> {
  // The owner's plan, when the caller has it already (the bot cache's), saves a query per turn.
  const available = bot.web_enabled && (owner ? isPaid(owner, ctx.now()) : await ctx.mayRun(bot.id));
  const lang = languageCode(bot.idioma);
  return {
    available,
    unavailableText: available ? null : UNAVAILABLE_TEXTS[lang].replace('{business}', bot.business_name),
  };
}

/**
 * The bot of a web key.
 * @throws AppError NOT_FOUND "No se encontró la configuración del bot para este IALanding."
 */
export async function botByKey(ctx: ChannelContext, key: string): Promise<Chatbot> {
  const bot = await findChatbotByKey(ctx.db, key);
  if (!bot) throw new AppError('NOT_FOUND', WEB_ERRORS.keyNotFound);
  return bot;
}

/**
 * The website a widget request comes from: the request's `Origin` when it is another site than
 * Charla itself (the dashboard's own pages and the IALanding are Charla's origin and do not count),
 * else null. Browsers send `Origin` on the widget's cross-origin fetches; `null` origins (files,
 * sandboxed frames) are not sites.
 */
export function widgetSiteOrigin(req: FastifyRequest): string | null {
  const origin = req.headers.origin;
  if (!origin || origin === 'null') return null;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return url.host === req.headers.host ? null : url.origin;
}
