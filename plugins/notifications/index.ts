/**
 * Owner notifications and the hand-off (issue 27 §1, §2), through the registry only: a middleware
 * on every follower turn, a listener of the reservations plugin's booking events (`ctx.events`),
 * durable mail jobs with a digest (delivery.ts), owner routes (routes.ts) and its own tables.
 *
 * - "New conversation": a follower's first message on a real channel (not the owner's test chat
 *   or the CLI); "a follower asks for a person" (matcher.ts, seven languages); "new booking" and
 *   "booking changed or cancelled" (a follower's, in a real chat) are recorded and e-mailed;
 *   "days running out" (3 days left, and at 0) by a daily job over the owners' expiries.
 * - The hand-off: a follower asking for a person is answered, in the bot's language, that the
 *   owner has been told and will answer here (with the opening hours when the reservations plugin
 *   knows them, hours.ts), with no file; the conversation is marked "needs a person" in the
 *   conversations plugin's inbox (`conversations.needs-person`). In the test chat the bot answers
 *   the same, but nothing is recorded or mailed. A follower the empathy reading finds strongly
 *   frustrated (engine/empathy readState: frustrated twice in a row, or a strong score) is an
 *   "asks for a person" event too, without the hand-off reply.
 * - "A channel is down" (channel-down.ts): a connection that goes from working to failing.
 * - Routes per kind (settings.ts): e-mail (delivery.ts), the owner's Telegram, Web Push and the
 *   open dashboard (routing.ts, push.ts, stream.ts).
 * Registered after the conversations plugin: while the owner has taken a chat over, the turn is
 * silenced before this middleware and nothing is notified (the owner is there).
 */

import { z } from 'zod';
import { readState } from '../../engine/empathy/index.ts';
import {
  definePlugin,
  type FeaturePlugin,
  pluginJob,
  type TurnContext,
} from '../../engine/registry/index.ts';
import { type LangCode, languageCode } from '../../engine/schemas.ts';
import { NEEDS_PERSON_EVENT } from '../conversations/api.ts';
import { listenChannelHealth } from './channel-down.ts';
import {
  daysHandler,
  daysJob,
  mailHandler,
  mailJob,
  type NewEvent,
  recordEvent,
  routeJob,
  sweepHandler,
  sweepJob,
} from './delivery.ts';
import { askHours, formatHours } from './hours.ts';
import { asksForPerson } from './matcher.ts';
import { migrations } from './migrations.ts';
import { NotificationsEnv, vapidOf } from './push.ts';
import { hasWritten, type NotificationsDb, notificationsDb, ownerNotificationsData } from './queries.ts';
import { notificationRoutes } from './routes.ts';
import { routeHandler } from './routing.ts';
import { TEXTS } from './texts.ts';

/** Channels whose followers are real people (issue 27 §4: test chats are kept apart). */
export const REAL_CHANNELS: ReadonlySet<string> = new Set(['telegram', 'whatsapp', 'web', 'ialanding']);

/** The reservations plugin's booking event (plugins/reservations/events.ts), checked here. */
const BookingEvent = z.object({
  kind: z.enum(['created', 'changed', 'cancelled']),
  by: z.enum(['follower', 'owner']),
  chatbotId: z.string(),
  reservationId: z.string(),
  code: z.string(),
  date: z.string(),
  time: z.string(),
  partySize: z.number().nullable(),
  customerName: z.string().nullable(),
  channel: z.string().nullable(),
  chatId: z.string().nullable(),
  at: z.string(),
  /** IANA time zone of `date`/`time` (the .ics uses UTC without it). */
  timezone: z.string().nullable().optional(),
  /** How long the booking lasts, minutes (the .ics uses 60 without it). */
  durationMinutes: z.number().nullable().optional(),
});

/**
 * Strong frustration (issue 27 §1: "the empathy container's high-frustration alert"): the
 * follower's message reads `frustrado` with a strong score (two cues or more), or it does and so
 * did their previous message. Cheap string work on the turn's text and history.
 */
export function stronglyFrustrated(
  text: string,
  lang: LangCode,
  history: ReadonlyArray<{ role: string; content: string }>,
): boolean {
  const now = readState(text, lang, history as Parameters<typeof readState>[2]);
  if (now.estado !== 'frustrado') return false;
  if (now.puntuacion >= 0.8) return true;
  const users = history.filter((h) => h.role === 'user');
  const prev = users[users.length - 1];
  if (!prev) return false;
  return (
    readState(prev.content, lang, users.slice(0, -1) as Parameters<typeof readState>[2]).estado ===
    'frustrado'
  );
}

/** Keys this process has seen (followers known to have written; conversations flagged), at most 50,000. */
class KnownFollowers {
  private readonly seen = new Set<string>();
  has(key: string): boolean {
    return this.seen.has(key);
  }
  add(key: string): void {
    if (this.seen.size >= 50_000) this.seen.clear();
    this.seen.add(key);
  }
}

/** Builds the notifications plugin. */
export function createNotificationsPlugin(): FeaturePlugin {
  return definePlugin({
    id: 'notifications',
    migrations,
    envSchema: NotificationsEnv,
    setup(ctx) {
      const db: NotificationsDb = notificationsDb(ctx.db);
      const vapid = vapidOf(ctx.settings);
      const known = new KnownFollowers();
      /** Conversations marked for frustration this hour, by `who:hour` (at most 50,000). */
      const flagged = new KnownFollowers();
      const record = (e: NewEvent) =>
        recordEvent(ctx, db, e).catch((err: unknown) => {
          ctx.log.error({ err, kind: e.kind, chatbotId: e.chatbotId }, 'could not record a notification');
          return false;
        });

      /** Records what a follower's turn means for the owner; answers a request for a person. */
      const middleware = async (turn: TurnContext) => {
        const { inbound, bot } = turn;
        const text = inbound.text.trim();
        const real = REAL_CHANNELS.has(inbound.channel);
        const asks = text ? asksForPerson(text) : null;
        const lang = languageCode(bot.idioma);
        if (real) {
          const who = `${bot.id}:${inbound.channel}:${inbound.follower.id}`;
          const grp = `conv:${who}`;
          const data = {
            channel: inbound.channel,
            userId: inbound.follower.id,
            username: inbound.follower.username ?? null,
            text: text.slice(0, 500),
          };
          if (!known.has(who)) {
            if (!(await hasWritten(db, bot.id, inbound.channel, inbound.follower.id)))
              await record({ chatbotId: bot.id, kind: 'new_conversation', grp, dedupe: `new:${who}`, data });
            known.add(who);
          }
          const hour = `${who}:${Math.floor(turn.now.getTime() / 3_600_000)}`;
          // A conversation already marked this hour for frustration costs no query (the stored
          // event's `dedupe` is what makes it once across nodes; this only spares the writes).
          const frustrated =
            !asks && text !== '' && !flagged.has(hour) && stronglyFrustrated(text, lang, turn.history);
          if (frustrated) flagged.add(hour);
          if (asks || frustrated) {
            const key = { chatbotId: bot.id, channel: inbound.channel, userId: inbound.follower.id };
            // The inbox's state (the conversations plugin, through the registry).
            await ctx.events.emit(NEEDS_PERSON_EVENT, key);
            await record({
              chatbotId: bot.id,
              kind: 'asks_person',
              grp,
              // A frustrated follower is told once an hour per conversation (not per angry message).
              dedupe: frustrated ? `frustrated:${hour}` : `person:${turn.turnKey}`,
              data: frustrated ? { ...data, frustrated: true } : data,
            });
          }
        }
        if (!asks) return undefined;
        const t = TEXTS[lang];
        const hours = bot.settings.enable_reservations ? await askHours(ctx.events, bot.id) : null;
        const line = hours ? formatHours(hours, lang) : '';
        return {
          reply: line
            ? `${t.handoff(bot.business_name)}\n${t.hoursLabel}: ${line}`
            : t.handoff(bot.business_name),
        };
      };
      const healthListening = listenChannelHealth(ctx, record);
      healthListening.catch((err) =>
        ctx.log.warn({ err }, 'notifications: not listening for channel health'),
      );

      ctx.events.on('reservations.booking', async (payload) => {
        const e = BookingEvent.parse(payload);
        // The owner's own changes and test-chat bookings tell the owner nothing new.
        if (e.by === 'owner' || !e.channel || !REAL_CHANNELS.has(e.channel)) return;
        const kind = e.kind === 'created' ? 'booking_new' : 'booking_changed';
        const when = e.kind === 'cancelled' ? 'x' : `${e.date}T${e.time}`;
        await record({
          chatbotId: e.chatbotId,
          kind,
          grp: `booking:${e.reservationId}`,
          dedupe: `booking:${e.reservationId}:${e.kind}:${when}`,
          data: { ...e },
        });
      });

      return {
        middleware: [middleware],
        jobs: [
          pluginJob(mailJob, mailHandler(ctx, db)),
          pluginJob(sweepJob, sweepHandler(ctx, db)),
          pluginJob(daysJob, daysHandler(ctx, db)),
          pluginJob(routeJob, routeHandler(ctx, db, vapid)),
        ],
        cron: [
          { definition: sweepJob, cron: '*/10 * * * *', data: {} },
          { definition: daysJob, cron: '0 8 * * *', data: {} },
        ],
        routes: { prefix: '', plugin: notificationRoutes(ctx, db, vapid) },
        // Issue 26 §5: the owner's choices and marks in their export (the tables cascade on deletion).
        ownerData: { export: (ownerId) => ownerNotificationsData(db, ownerId) },
        dispose: async () => {
          const stop = await healthListening.catch(() => undefined);
          await stop?.();
        },
      };
    },
  });
}

/** The registered notifications plugin (plugins/index.ts). */
export const notifications = createNotificationsPlugin();
