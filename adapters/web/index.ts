/**
 * The web channel (issue 6): the embeddable widget, the IALanding and /charla-web. Unlike Telegram it
 * holds no connections: every visitor message arrives as an HTTP request and is answered in its
 * response (JSON or streamed), so the supervisor has nothing to start and the inbox is not used;
 * availability (the web service switch and the owner's days) is checked on every request, and the
 * adapter has no `connections` part. Turns go through `ctx.dispatch` with `deliver: 'return'`: the
 * route answers with the transformed reply (turn-http.ts). Messages
 * nobody asked for (reminders, owners' replies) are stored and reach the open widget or IALanding
 * on its live stream (adapters/web/pushed-stream.ts; polled as a fallback, pushed.ts), so the
 * channel declares `push`.
 */

import type { ChannelAdapter, ChannelContext } from '../../engine/registry/index.ts';
import { VisitorWakes } from './pushed-stream.ts';
import { webRoutes } from './routes.ts';
import { queueVisitorPush, visitorPushJobs } from './visitor-push.ts';

/** The channel id on conversation rows written by the widget. */
export const WEB = 'web';

/** Creates the web adapter (one per app). */
export function createWebAdapter(): ChannelAdapter {
  let ctx: ChannelContext | undefined;
  const need = () => {
    if (!ctx) throw new Error('web adapter used before start()');
    return ctx;
  };
  // One subscription per process for every visitor stream it holds.
  const wakes = new VisitorWakes(need);
  return {
    id: WEB,
    // Voice notes: a spoken reply goes back inline with the answer (voice.ts); pushed messages carry text.
    capabilities: { maxTextLength: 20_000, voiceNotes: true, choices: true, streaming: true, push: true },
    // The IALanding's visitors (channel `ialanding`) get owners' replies the same way (issue 27 §3).
    alsoServes: ['ialanding'],
    async start(context) {
      ctx = context;
    },
    /**
     * "Pushes" by letting the outbox store the message in the visitor's conversation: the widget
     * gets it (adapters/web/pushed-stream.ts). An anonymous visitor (no widget id) cannot get it.
     */
    async send(chatbotId, chatId, message, to) {
      if (chatId === 'anonymous') throw new Error('an anonymous web visitor cannot receive messages');
      // An IALanding visitor who subscribed their browser also gets a Web Push (issue 28 §2).
      // A failure here must not refuse the message the visitor's page shows (it is logged).
      await queueVisitorPush(need(), chatbotId, chatId, message, to).catch((err: unknown) =>
        need().log.warn({ err }, 'visitor push not queued'),
      );
    },
    async stop() {
      await wakes.close();
    },
    apiRoutes: webRoutes(need, wakes),
    jobs: visitorPushJobs(need),
  };
}
