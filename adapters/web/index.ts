/**
 * The web channel (issue 6): the embeddable widget, the IALanding and /charla-web. Unlike Telegram it
 * holds no connections: every visitor message arrives as an HTTP request and is answered in its
 * response (JSON or streamed), so the supervisor has nothing to start and the inbox is not used;
 * availability (the web service switch and the owner's days) is checked on every request. Messages
 * nobody asked for (reminders, owners' replies) are stored and fetched by the widget
 * (adapters/web/pushed.ts), so the channel declares `push`.
 */

import { z } from 'zod';
import type { ChannelAdapter, ChannelContext, ConnectionHealth } from '../../engine/registry/index.ts';
import { webRoutes } from './routes.ts';

/** The channel id on conversation rows written by the widget. */
export const WEB = 'web';

/** Creates the web adapter (one per app). */
export function createWebAdapter(): ChannelAdapter<Record<string, never>> {
  let ctx: ChannelContext | undefined;
  const need = () => {
    if (!ctx) throw new Error('web adapter used before start()');
    return ctx;
  };
  return {
    id: WEB,
    configSchema: z.object({}).strict() as z.ZodType<Record<string, never>>,
    // Voice notes: a spoken reply goes back inline with the answer (voice.ts); pushed messages carry text.
    capabilities: { maxTextLength: 20_000, voiceNotes: true, choices: true, streaming: true, push: true },
    async start(context) {
      ctx = context;
    },
    configured: async () => [],
    connected: () => [],
    async connect() {},
    async disconnect() {},
    async handleUpdate() {},
    async health(): Promise<ConnectionHealth> {
      return {
        mode: 'http',
        state: 'connected',
        lastError: null,
        lastErrorAt: null,
        lastUpdateAt: null,
        pendingUpdates: null,
      };
    },
    /**
     * "Pushes" by letting the outbox store the message in the visitor's conversation: the widget
     * fetches it (adapters/web/pushed.ts). An anonymous visitor (no widget id) cannot get it.
     */
    async send(_chatbotId, chatId) {
      if (chatId === 'anonymous') throw new Error('an anonymous web visitor cannot receive messages');
    },
    async stop() {},
    apiRoutes: webRoutes(need),
  };
}
