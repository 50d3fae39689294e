/**
 * The web channel (issue 6): the embeddable widget, the IALanding and /charla-web. Unlike Telegram it
 * holds no connections: every visitor message arrives as an HTTP request and is answered in its
 * response (JSON or streamed), so the supervisor has nothing to start and the inbox is not used;
 * availability (the web service switch and the owner's days) is checked on every request.
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
    capabilities: { maxTextLength: 20_000, voiceNotes: false, choices: true, streaming: true, push: false },
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
    async send() {
      throw new Error('the web channel answers within the visitor’s request; it cannot push messages');
    },
    async stop() {},
    apiRoutes: webRoutes(need),
  };
}
