/**
 * The routes other than e-mail (issue 27 §1), one {@link routeJob} per event and route, each
 * retried alone:
 *
 * - `page`: a NOTIFY on {@link PAGE_CHANNEL} (every node's open dashboards get it, stream.ts);
 * - `push`: Web Push to the owner's subscribed browsers (push.ts), when the operator set VAPID keys;
 * - `telegram`: the conversations plugin's {@link OWNER_NOTICE_EVENT} (its own durable job sends it
 *   to the chat the owner linked to the bot, if any); not for `new_conversation`, whose message
 *   the linked chat gets forwarded anyway.
 *
 * The owner's choice is read again when the job runs: a route turned off meanwhile sends nothing.
 */
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Job } from '../../engine/jobs/index.ts';
import type { PluginContext } from '../../engine/registry/index.ts';
import { OWNER_NOTICE_EVENT, OWNER_TELEGRAM_QUERY } from '../conversations/api.ts';
import { linkOf, type routeJob } from './delivery.ts';
import { pushToOwner, type Vapid } from './push.ts';
import { findBotOwner, findEvent, findOwner, type NotificationsDb, type StoredEvent } from './queries.ts';
import { ownerChoices, routeOn } from './settings.ts';
import { type EventKind, TEXTS } from './texts.ts';

/** The NOTIFY channel of in-page notifications; payload `{ ownerId, notification }` (JSON). */
export const PAGE_CHANNEL = 'charla_notifications';

/**
 * What a dashboard shows and a push carries (the `notification` event of the stream): `url` is the
 * page to open (a path on the dashboard for `page`, absolute for push and Telegram when
 * PUBLIC_URL is set), `at` the event's ISO time, `id` the event's id (a string of digits).
 */
export interface OwnerNotification {
  id: string;
  kind: EventKind;
  chatbotId: string | null;
  title: string;
  body: string;
  url: string;
  at: string;
}

/** The notification of a stored event in the owner's language (pure). */
export function notificationOf(
  e: StoredEvent,
  lang: keyof typeof TEXTS,
  business: string,
  base: string,
): OwnerNotification {
  const t = TEXTS[lang];
  const kind = e.kind as EventKind;
  return {
    id: e.id,
    kind,
    chatbotId: e.chatbot_id,
    title: `${business || 'Charla'}: ${t.kinds[kind]}`,
    body: t.line[kind](e.data).slice(0, 500),
    url: linkOf(base, e, t).href,
    at: e.created_at.toISOString(),
  };
}

/** The route job's handler. */
export function routeHandler(
  ctx: Pick<PluginContext, 'db' | 'events' | 'secrets' | 'log' | 'publicUrl'>,
  db: NotificationsDb,
  vapid: Vapid | null,
) {
  return async (job: Job<z.infer<typeof routeJob.data>>): Promise<void> => {
    const { eventId, route } = job.data;
    const e = await findEvent(db, eventId);
    if (!e) return; // deleted with its owner or bot
    const choices = await ownerChoices(db, e.owner_id);
    if (!routeOn(choices, e.kind as EventKind, route)) return;
    const business = e.chatbot_id
      ? ((await findBotOwner(db, e.chatbot_id))?.business_name ?? '')
      : ((await findOwner(db, e.owner_id))?.business_name ?? '');
    const base = (ctx.publicUrl ?? '').replace(/\/$/, '');
    if (route === 'page') {
      const n = notificationOf(e, choices.language, business, '');
      const payload = JSON.stringify({ ownerId: e.owner_id, notification: n });
      await sql`select pg_notify(${PAGE_CHANNEL}, ${payload})`.execute(ctx.db);
      return;
    }
    const n = notificationOf(e, choices.language, business, base);
    if (route === 'push') {
      if (!vapid) return;
      await pushToOwner(ctx, db, vapid, e.owner_id, {
        title: n.title,
        body: n.body,
        url: n.url,
        tag: e.grp,
      });
      return;
    }
    // A new conversation reaches the linked chat already: every follower message is forwarded
    // there (plugins/conversations/phone.ts), so a notice would say it twice.
    if (e.kind === 'new_conversation' && e.chatbot_id) return;
    // No linked chat: no notice job to queue (the conversations plugin answers).
    let linked = false;
    await ctx.events.emit(OWNER_TELEGRAM_QUERY, {
      ownerId: e.owner_id,
      reply: (v: boolean) => (linked = v),
    });
    if (!linked) return;
    await ctx.events.emit(OWNER_NOTICE_EVENT, {
      chatbotId: e.chatbot_id,
      ownerId: e.owner_id,
      text: `🔔 ${n.title}\n${n.body}\n${n.url}`.slice(0, 3500),
      key: `notice:${e.id}`,
    });
  };
}
