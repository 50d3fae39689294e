/**
 * Who may run a turn, and how often (issue 24 §2): the one check every HTTP route that runs a turn
 * makes before the engine is called — the bot-id routes (`/api/chatbot-message/:id`,
 * `/api/chatbot-voice/:id`) and the web-key routes (`/api/web/:key/message`, `/voice`). Bot ids are
 * public (Facebots, a widget's config), so a bot id alone must not let anyone spend the operator's
 * LLM budget on a bot whose owner has no days, whose web service is off, or that is private.
 *
 * The rules, by the client that asks (`channel`):
 * - `test` (the owner's test chat) and `cli` (`charla chat`): the bot's owner (session cookie or
 *   bearer token) or the operator (engine/operator.ts). No session: 401; another owner: 404 (the
 *   bot's existence is not confirmed). Not gated by days or the web switch (an owner whose days ran
 *   out can still try their bot before renewing), but limited per owner (`turnOwner`).
 * - `web` and `ialanding` (followers): the bot's web service is on and its owner has days (spec 001
 *   §4), else 403 with the text visitors read in the bot's language; by bot id, the bot must also be
 *   public (a private bot answers by id only its owner; its widget key still works, the key being
 *   what the owner hands out); limited per visitor, per address and per bot (`turnVisitor`,
 *   `turnAddress`, `turnBot`), with counters shared by the id and key routes and by every node.
 * Past a limit: 429 with `Retry-After` and the text in the bot's language.
 *
 * Whether a bot is public or has its web service on is read from the engine's short-lived bot
 * cache: a change made on this node applies at once; on another node of a deployment, within the
 * cache's 5 s.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, botNotFound } from '../../engine/errors.ts';
import { SIGN_IN_REQUIRED } from '../../engine/http/auth.ts';
import { isOperatorRequest } from '../../engine/operator.ts';
import { addressKey, admit, type LimitCheck } from '../../engine/rate-limits.ts';
import type { ChannelContext } from '../../engine/registry/index.ts';
import { languageCode } from '../../engine/schemas.ts';
import type { Chatbot } from '../../engine/store/database.ts';
import type { ChatChannel } from './contract.ts';
import { availability } from './shared.ts';
import { TOO_MANY_TEXTS } from './texts.ts';

/** Who a gated turn runs for. */
export type TurnRequester = 'visitor' | 'owner' | 'operator';

/** What the route knows of the request when it asks. */
export interface TurnAsk {
  channel: (typeof ChatChannel.options)[number];
  /** The follower's id as the client gave it (the widget's visitor id), if any. */
  visitorId?: string | undefined;
  /** By bot id (public ids: the bot must be public) or by web key (the owner's own key). */
  via: 'id' | 'key';
  /** The owner's plan when the route read it with the bot (the bot cache), else it is read here. */
  owner?: { plan: string | null; expires_at: Date | string | null } | undefined;
}

/** The signed-in owner of the request, or null (no session, or an invalid one). */
async function ownerOf(ctx: ChannelContext, req: FastifyRequest): Promise<{ id: string } | null> {
  try {
    return await ctx.requireOwner(req);
  } catch (err) {
    if (err instanceof AppError && err.code === 'UNAUTHORIZED') return null;
    throw err;
  }
}

/**
 * Who is asking for a turn on `bot`: the operator, its owner, or a visitor, and whether a session
 * came at all. Looks the session up only when `needOwner` (a private bot, a test chat, a debug
 * view), so a follower's turn costs no session query.
 */
export async function requesterOf(
  ctx: ChannelContext,
  req: FastifyRequest,
  bot: Chatbot,
  needOwner: boolean,
): Promise<{ who: TurnRequester; signedIn: boolean }> {
  if (isOperatorRequest(req, ctx.secrets)) return { who: 'operator', signedIn: false };
  if (!needOwner) return { who: 'visitor', signedIn: false };
  const owner = await ownerOf(ctx, req);
  return { who: owner?.id === bot.user_id ? 'owner' : 'visitor', signedIn: owner !== null };
}

/**
 * Applies the rules above to one request, counting it against the limits.
 * @param debug the client asked for the whole empathy container (shown to the owner only).
 * @returns who asked: `owner` or `operator` may see the debug view.
 * @throws AppError UNAUTHORIZED (test/cli without a session), NOT_FOUND (spec text: another
 *   owner's test chat, a private bot by id), FORBIDDEN (web service off or no days, in the bot's
 *   language), RATE_LIMITED (with `Retry-After` set on `reply`).
 */
export async function gateTurn(
  ctx: ChannelContext,
  req: FastifyRequest,
  reply: FastifyReply,
  bot: Chatbot,
  ask: TurnAsk,
  debug = false,
): Promise<TurnRequester> {
  const ownerChannel = ask.channel === 'test' || ask.channel === 'cli';
  const { who, signedIn } = await requesterOf(
    ctx,
    req,
    bot,
    ownerChannel || debug || (ask.via === 'id' && !bot.is_public),
  );
  const lang = languageCode(bot.idioma);
  const limited = async (checks: LimitCheck[]) => {
    if (!(await admit(ctx.limits, reply, checks))) throw new AppError('RATE_LIMITED', TOO_MANY_TEXTS[lang]);
  };
  if (ownerChannel) {
    if (who === 'operator') return who;
    if (who !== 'owner') throw signedIn ? botNotFound() : new AppError('UNAUTHORIZED', SIGN_IN_REQUIRED);
    await limited([{ limit: 'turnOwner', key: bot.user_id }]);
    return who;
  }
  if (ask.via === 'id' && !bot.is_public && who === 'visitor') throw botNotFound();
  const { available, unavailableText } = await availability(ctx, bot, ask.owner);
  if (!available) throw new AppError('FORBIDDEN', unavailableText!);
  if (who === 'operator') return who;
  // A visitor is their id, or their address without one; the two never share a counter. An
  // address is an IPv4 address or an IPv6 /64 (addressKey).
  const address = addressKey(req.ip);
  await limited([
    {
      limit: 'turnVisitor',
      key: `${bot.id}:${ask.visitorId !== undefined ? `v:${ask.visitorId}` : `ip:${address}`}`,
    },
    { limit: 'turnAddress', key: `${bot.id}:${address}` },
    { limit: 'turnBot', key: bot.id },
  ]);
  return who;
}
