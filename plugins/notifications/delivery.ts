/**
 * The owner's notification mails as durable jobs (issue 27 §1). Each event is a row
 * (queries.ts `insertEvent`, unique by what it is about) and gets its own job (keyed by the
 * event), so none is lost when a process dies or the SMTP server is down: the job is retried
 * with backoff, and a sweep every 10 minutes queues again any event still unmailed.
 *
 * The digest: events are grouped (one conversation, one booking); a group gets at most one mail
 * per {@link WINDOW_MS} (the plugin's clock). A job finding the group's window still closed
 * queues one job for when it opens (keyed by the group's last mail, so the waiting events share
 * it); a job claims every unmailed event of its group in one statement, so the events of a burst
 * go out folded in one mail and no two jobs mail the same event. An event is marked mailed right
 * after the SMTP server accepted the mail: a process killed between the two (milliseconds) is the
 * one case that mails twice.
 */
import { z } from 'zod';
import type { RenderedMail } from '../../engine/auth/mail.ts';
import { defineJob, type Job } from '../../engine/jobs/index.ts';
import type { PluginContext } from '../../engine/registry/index.ts';
import { isSubscriptionPlan, type LangCode } from '../../engine/schemas.ts';
import { bookingCalendar, type CreateEvent, loadCalendar } from './ics.ts';
import {
  claimEvents,
  findBotOwner,
  findEvent,
  findOwner,
  insertEvent,
  lastMailed,
  markMailed,
  markRouted,
  type NotificationsDb,
  ownersExpiring,
  type StoredEvent,
  staleGroups,
  unroutedEvents,
} from './queries.ts';
import { anyRouteOn, ownerChoices, ROUTES, type Route, routeOn } from './settings.ts';
import { type EventKind, TEXTS } from './texts.ts';

/** At most one mail per group (a conversation, a booking) in this long, ms (issue 27 §1). */
export const WINDOW_MS = 10 * 60_000;
/** A first event waits this long (real time) so the events of one burst fold into one mail, ms. */
export const FOLD_MS = 1_500;
/** A claim older than this belongs to a job that died; another job may take its events, ms. */
export const STALE_CLAIM_MS = 5 * 60_000;

/** One notification mail job: mail the group's waiting events. */
export const mailJob = defineJob({
  name: 'notifications.mail',
  data: z.object({ grp: z.string().min(1).max(300) }),
  retryLimit: 12,
  retryDelaySeconds: 20,
  leaseSeconds: 60,
  concurrency: 10,
});

/**
 * One route of one event (issue 27 §1: telegram, push, page), its own durable job so a route that
 * fails (Telegram down, a push service erroring) is retried alone; routing.ts handles it.
 */
export const routeJob = defineJob({
  name: 'notifications.route',
  data: z.object({ eventId: z.string().regex(/^\d{1,18}$/), route: z.enum(['telegram', 'push', 'page']) }),
  retryLimit: 8,
  retryDelaySeconds: 15,
  leaseSeconds: 60,
  concurrency: 10,
});

/** The sweep: queues a mail job for groups whose events wait too long (a job that gave up). */
export const sweepJob = defineJob({ name: 'notifications.sweep', data: z.object({}) });

/** What the plugin's delivery needs of its context. */
export type DeliveryContext = Pick<PluginContext, 'jobs' | 'now' | 'log' | 'mailer' | 'publicUrl'>;

/** An event to record: about a bot (its owner is told), or about an owner's account. */
export interface NewEvent {
  chatbotId: string | null;
  /** Needed when `chatbotId` is null. */
  ownerId?: string;
  kind: EventKind;
  /** The group it folds into (`conv:<bot>:<channel>:<user>`, `booking:<id>`). */
  grp: string;
  /** Unique per event: a replay records nothing new. */
  dedupe: string;
  data: Record<string, unknown>;
}

/**
 * Records an event for the bot's owner and queues its routes (the mail job when e-mail is on, a
 * {@link routeJob} per other route on), unless every route of its kind is off or it was recorded
 * before. `routed_at` is set once the jobs are queued; the sweep queues them for an event left
 * without (a process that died in between).
 * @returns true when recorded.
 */
export async function recordEvent(ctx: DeliveryContext, db: NotificationsDb, e: NewEvent): Promise<boolean> {
  const ownerId = e.chatbotId ? (await findBotOwner(db, e.chatbotId))?.owner_id : e.ownerId;
  if (!ownerId) return false;
  const choices = await ownerChoices(db, ownerId);
  if (!anyRouteOn(choices, e.kind)) return false;
  const id = await insertEvent(db, { ...e, ownerId, at: ctx.now() });
  if (!id) return false;
  await queueRoutes(ctx, db, id, e.grp, (r) => routeOn(choices, e.kind, r));
  return true;
}

/** Queues an event's jobs (one per route `wanted`), then marks it routed. Each job is keyed: idempotent. */
async function queueRoutes(
  ctx: DeliveryContext,
  db: NotificationsDb,
  id: string,
  grp: string,
  wanted: (r: Route) => boolean,
): Promise<void> {
  for (const route of ROUTES) {
    if (!wanted(route)) continue;
    if (route === 'email')
      await ctx.jobs.send(mailJob, { grp }, { key: `event:${id}`, runAt: new Date(Date.now() + FOLD_MS) });
    else await ctx.jobs.send(routeJob, { eventId: id, route }, { key: `route:${id}:${route}` });
  }
  await markRouted(db, id, ctx.now());
}

/** The link a mail (or any route) opens and its button: the conversation, the bot's bookings, or the account. */
export function linkOf(
  base: string,
  e: StoredEvent,
  t: (typeof TEXTS)[LangCode],
): { href: string; action: string } {
  const d = e.data;
  const bot = e.chatbot_id ?? '';
  if (e.kind === 'days_running_out') return { href: `${base}/main`, action: t.openAccount };
  // A channel that is down is no conversation: its settings on "Tu bot" (configure.tsx's sections).
  if (e.kind === 'channel_down')
    return {
      href: `${base}/configure#${d.channel === 'telegram' ? 'telegram' : 'whatsapp'}`,
      action: t.openChannel,
    };
  const chat = (userId: unknown, extra: Record<string, string> = {}) =>
    `${base}/usuarios-conversaciones?${new URLSearchParams({ chatbotId: bot, channel: String(d.channel), userId: String(userId), ...extra })}`;
  if (e.kind === 'booking_new' || e.kind === 'booking_changed') {
    if (d.channel && d.chatId)
      return { href: chat(d.chatId, { reservation: String(d.code ?? '') }), action: t.open };
    return {
      href: `${base}/configure?${new URLSearchParams({ chatbotId: bot, tab: 'reservas' })}`,
      action: t.openBooking,
    };
  }
  return { href: chat(d.userId), action: t.open };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Renders one mail for a group's events (pure): a line per event, a link to what it is about. */
export function renderNotification(
  lang: LangCode,
  to: string,
  business: string,
  events: StoredEvent[],
  base: string,
  createEvent?: CreateEvent,
): RenderedMail {
  const t = TEXTS[lang];
  // The most pressing event names the mail: a person asked for first.
  const order: EventKind[] = [
    'channel_down',
    'asks_person',
    'booking_changed',
    'booking_new',
    'new_conversation',
  ];
  const first = order.find((k) => events.some((e) => e.kind === k)) ?? (events[0]!.kind as EventKind);
  const lines = events.map((e) => t.line[e.kind as EventKind](e.data));
  const { href, action } = linkOf(base, events.find((e) => e.kind === first) ?? events[0]!, t);
  const name = business || 'Charla';
  // Issue 27 §6: a booking's mail carries it as a calendar entry (one per booking in the mail).
  const attachments = events
    .filter((e) => e.kind === 'booking_new' || e.kind === 'booking_changed')
    .map((e) => (createEvent ? bookingCalendar(createEvent, e.data, name, t.bookingWord, href) : null))
    .filter((a) => a !== null);
  const subject = `${name}: ${t.kinds[first]}${events.length > 1 ? ` (+${events.length - 1})` : ''}`;
  const text = `Charla · ${business}\n\n${lines.map((l) => `• ${l}`).join('\n')}\n\n${action}: ${href}\n\n${t.footer}\n`;
  const html = `<!doctype html><html lang="${lang}"><body style="font-family:system-ui,sans-serif;color:#1f2937">
<p style="font-size:20px;font-weight:700;color:#0f766e">Charla · ${escapeHtml(business)}</p>
<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>
<p><a href="${escapeHtml(href)}" style="display:inline-block;background:#0f766e;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="font-size:13px;color:#6b7280">${escapeHtml(t.footer)}</p>
</body></html>`;
  return { to, subject, text, html, link: href, ...(attachments.length > 0 ? { attachments } : {}) };
}

/** The mail job's handler (see the module comment). */
export function mailHandler(ctx: DeliveryContext, db: NotificationsDb) {
  return async (job: Job<z.infer<typeof mailJob.data>>): Promise<void> => {
    const { grp } = job.data;
    const now = ctx.now();
    const last = await lastMailed(db, grp);
    if (last && now.getTime() - last.getTime() < WINDOW_MS) {
      const due = last.getTime() + WINDOW_MS;
      await ctx.jobs.send(
        mailJob,
        { grp },
        { key: `window:${grp}:${last.toISOString()}`, runAt: new Date(Date.now() + (due - now.getTime())) },
      );
      return;
    }
    const events = await claimEvents(db, grp, job.id, now, STALE_CLAIM_MS);
    if (events.length === 0) return;
    const ownerId = events[0]!.owner_id;
    const owner = await findOwner(db, ownerId);
    if (!owner) return; // the account is gone (its events went with it)
    const choices = await ownerChoices(db, ownerId);
    const language = choices.language;
    const wanted = events.filter((e) => routeOn(choices, e.kind as EventKind, 'email'));
    if (wanted.length > 0) {
      const base = (ctx.publicUrl ?? '').replace(/\/$/, '');
      const booking = wanted.some((e) => e.kind === 'booking_new' || e.kind === 'booking_changed');
      const createEvent = booking ? await loadCalendar() : undefined;
      await ctx.mailer.send(
        renderNotification(language, owner.email, owner.business_name, wanted, base, createEvent),
      );
      ctx.log.info({ grp, events: wanted.length }, 'owner notified by e-mail');
    }
    await markMailed(
      db,
      events.map((e) => e.id),
      job.id,
      ctx.now(),
    );
  };
}

/** The sweep's handler: a mail job for each group whose events wait past the window and a claim. */
export function sweepHandler(ctx: DeliveryContext, db: NotificationsDb) {
  return async (): Promise<void> => {
    const before = new Date(ctx.now().getTime() - WINDOW_MS - STALE_CLAIM_MS);
    const bucket = Math.floor(Date.now() / WINDOW_MS);
    for (const grp of await staleGroups(db, before))
      await ctx.jobs.send(mailJob, { grp }, { key: `sweep:${grp}:${bucket}` });
    // Events whose routes were never queued (the mail is the stale-group sweep's above).
    for (const id of await unroutedEvents(db, new Date(ctx.now().getTime() - 60_000))) {
      const e = await findEvent(db, id);
      if (!e) continue;
      const choices = await ownerChoices(db, e.owner_id);
      await queueRoutes(ctx, db, id, e.grp, (r) => r !== 'email' && routeOn(choices, e.kind as EventKind, r));
    }
  };
}

/** The daily look for owners whose days run out (issue 27 §1: 3 days left, and at 0). */
export const daysJob = defineJob({ name: 'notifications.days', data: z.object({}) });

const DAY_MS = 86_400_000;

/**
 * The days job's handler: an event for each owner (not on a subscription) whose days end within
 * 3 days ("3 days left", whatever the exact count) or ended in the last 2 days ("at 0"); each
 * once per expiry, so a renewal starts the count again.
 */
export function daysHandler(ctx: DeliveryContext, db: NotificationsDb) {
  return async (): Promise<void> => {
    const now = ctx.now();
    const owners = await ownersExpiring(
      db,
      new Date(now.getTime() - 2 * DAY_MS),
      new Date(now.getTime() + 3 * DAY_MS),
    );
    for (const o of owners) {
      if (isSubscriptionPlan(o.plan)) continue;
      const left = Math.max(0, Math.ceil((o.expires_at.getTime() - now.getTime()) / DAY_MS));
      const stage = left > 0 ? 'soon' : 'over';
      await recordEvent(ctx, db, {
        chatbotId: null,
        ownerId: o.owner_id,
        kind: 'days_running_out',
        grp: `account:${o.owner_id}:${stage}`,
        dedupe: `days:${o.owner_id}:${o.expires_at.toISOString()}:${stage}`,
        data: { days: left },
      });
    }
  };
}
