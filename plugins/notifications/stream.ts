/**
 * The in-page route (issue 27 §1: "while the dashboard is open, an in-page alert and the browser's
 * Notification API"): `GET /api/notifications/stream`, Server-Sent Events for the session's owner.
 * Events: `ready` `{}` once listening; `notification` {@link OwnerNotification} for each of the
 * owner's events whose `page` route is on, raised on any node (PostgreSQL NOTIFY on
 * {@link PAGE_CHANNEL}, routing.ts); `resync` `{}` when this node's LISTEN connection was lost and
 * is back (notifications raised meanwhile were missed). A comment line every 25 s keeps proxies
 * from closing an idle stream; a stopping node ends it (`live`) and the browser reconnects.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { openSse } from '../../engine/http/sse.ts';
import type { PluginContext } from '../../engine/registry/index.ts';
import { PAGE_CHANNEL } from './routing.ts';

/** A heartbeat comment this often, ms. */
export const HEARTBEAT_MS = 25_000;

const Raised = z.object({ ownerId: z.string(), notification: z.record(z.string(), z.unknown()) });

/** The stream route. */
export function notificationStream(ctx: PluginContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/notifications/stream',
      {
        config: { owner: { self: true } },
        schema: {
          summary: 'The owner’s live notifications',
          description:
            'Issue 27 §1: Server-Sent Events. `ready` `{}`, then `notification` `{ id, kind, chatbotId, title, body, url, at }` ' +
            'for each of the owner’s events whose page route is on (any node), `resync` `{}` after a lost database ' +
            'connection came back. Heartbeat comment every 25 s.',
          tags: ['notifications'],
        },
      },
      async (req, reply) => {
        const owner = await ctx.requireOwner(req);
        const sse = openSse(reply, {}, { live: true });
        let closed = false;
        let stop: (() => Promise<void>) | undefined;
        const heartbeat = setInterval(() => {
          if (!reply.raw.writableEnded) reply.raw.write(': keep-alive\n\n');
        }, HEARTBEAT_MS);
        const close = () => {
          if (closed) return;
          closed = true;
          clearInterval(heartbeat);
          void stop?.();
          sse.end();
        };
        req.raw.on('close', close);
        try {
          stop = await ctx.listen(
            PAGE_CHANNEL,
            (payload) => {
              const raised = Raised.safeParse(JSON.parse(payload));
              if (raised.success && raised.data.ownerId === owner.id)
                sse.send('notification', raised.data.notification);
            },
            { onResume: () => sse.send('resync', {}) },
          );
        } catch (err) {
          req.log.warn({ err }, 'notifications stream could not listen');
          close();
          return;
        }
        if (closed) {
          void stop();
          return;
        }
        sse.send('ready', {});
      },
    );
  };
}
