/**
 * The web channel's HTTP routes (issue 6; spec 001 §2, §4, §7, §8).
 *
 * By bot id (bot-chat.ts): `GET /api/chatbot-config/:id`, `POST /api/chatbot-message/:id`,
 * `POST /api/chatbot-voice/:id`, `GET /api/chatbot-files` (the test chat and `charla chat`).
 *
 * Public, for any website (CORS `*`), addressed by the bot's web key (`charla_key`):
 * - `GET /api/web/:key/config`: what the widget shows (business name, greeting and texts in the
 *   bot's language) and whether the chat is available (web service on and the owner has days).
 * - `POST /api/web/:key/message`: one turn, the contract of `POST /api/chatbot-message/:id` (JSON or
 *   SSE). Gated and rate-limited by gate.ts.
 * - `GET /api/web/:key/pushed`: messages sent to a visitor without them asking (reminders, replies),
 *   and `GET /api/web/:key/pushed/stream`, the same live as Server-Sent Events (pushed-stream.ts).
 * - `GET /api/web/:key/history`: a returning visitor's recent messages (history.ts, issue 27 §3).
 * - `GET /api/web/:key/push/key`, `POST|DELETE /api/web/:key/push/subscriptions`: an IALanding
 *   visitor's Web Push (visitor-push-routes.ts, issue 28 §2).
 * - `GET /api/ialanding/:slug`: the public IALanding: business, greeting, availability and files.
 * - `GET /widget.js`, `GET /widget/*`: the embeddable widget's files (built into dist/widget).
 * - `GET /ialanding/:slug` (a page): the dashboard's HTML with the landing's title, description and
 *   Open Graph tags, so a shared link previews well.
 * Owner routes (session): `GET /api/charla-web` (the web channel load rules), `POST
 * /api/charla-web/toggle`, `POST /api/charla-web/key`, `POST /api/charla-web/ialanding`.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ChannelContext } from '../../engine/registry/index.ts';
import { botChatRoutes } from './bot-chat.ts';
import { webChatRoutes } from './chat.ts';
import { historyRoutes } from './history.ts';
import { ialandingRoutes } from './ialanding.ts';
import { webOwnerRoutes } from './owner.ts';
import { pushedRoutes } from './pushed.ts';
import { pushedStreamRoutes, type VisitorWakes } from './pushed-stream.ts';
import { visitorPushRoutes } from './visitor-push-routes.ts';
import { widgetFileRoutes } from './widget-files.ts';

export { WebMessageBody } from './chat.ts';

/** All of the web channel's routes (the modules above); `wakes` wakes this process's visitor streams. */
export function webRoutes(ctx: () => ChannelContext, wakes: VisitorWakes): FastifyPluginAsync {
  return async (app) => {
    await app.register(botChatRoutes(ctx));
    await app.register(webChatRoutes(ctx));
    await app.register(pushedRoutes(ctx));
    await app.register(pushedStreamRoutes(ctx, wakes));
    await app.register(historyRoutes(ctx));
    await app.register(visitorPushRoutes(ctx));
    await app.register(ialandingRoutes(ctx));
    await app.register(widgetFileRoutes(ctx));
    await app.register(webOwnerRoutes(ctx));
  };
}
