import { definePlugin, type FeaturePlugin, pluginJob } from '../../engine/registry/index.ts';
import { cancelNoticeHandler, cancelNoticeJob } from './cancel-notice.ts';
import { calendarName } from './config.ts';
import { reservationDialogue } from './dialogue.ts';
import { BOOKING_EVENT } from './events.ts';
import { visitorMailRoutes } from './mail-routes.ts';
import { MAIL_CHANNELS } from './mail-texts.ts';
import { bookingMailHandler, bookingMailJob, queueBookingMails } from './mails.ts';
import { migrations } from './migrations.ts';
import { ownerReservations } from './owner-queries.ts';
import { findBotBasics, findConfig, findReservation, reservationsDb } from './queries.ts';
import { reminderHandler, reminderJob } from './reminders.ts';
import { queueReplyMail, replyMailHandler, replyMailJob } from './reply-mails.ts';
import { reservationRoutes } from './routes.ts';
import { Bookings, HOLD_MS } from './service.ts';
import { localDate, weekdayOf } from './slots.ts';
import { reservationTools } from './tools.ts';

/** Builds the reservations plugin. */
export function createReservationsPlugin(): FeaturePlugin {
  return definePlugin({
    id: 'reservations',
    migrations,
    setup(ctx) {
      const db = reservationsDb(ctx.db);
      const bookings = new Bookings(db, ctx);
      // Issue 27 §2: the hand-off names the opening hours (plugins/notifications/hours.ts HOURS_QUERY).
      ctx.events.on('reservations.hours', async (q) => {
        const { chatbotId, reply } = q as { chatbotId: string; reply: (h: unknown) => void };
        const c = await findConfig(db, chatbotId);
        if (c) reply({ timezone: c.timezone, working_hours: c.working_hours });
      });
      // Issue 28 §2: a web visitor's booking confirmed or moved with an e-mail given: its mails.
      ctx.events.on(BOOKING_EVENT, async (e) => {
        const { kind, reservationId, channel } = e as {
          kind: string;
          reservationId: string;
          channel: string | null;
        };
        if (kind === 'cancelled' || !channel || !MAIL_CHANNELS.has(channel)) return;
        const r = await findReservation(db, reservationId);
        if (r) await queueBookingMails(ctx, db, r);
      });
      return {
        tools: reservationTools(bookings, { ctx, db }),
        offline: [reservationDialogue(db, bookings)],
        // Issue 28 §2: a message pushed to a web visitor (an owner's late reply) may be mailed later.
        outbound: [
          async (message, to) => {
            if (!to.inbound && MAIL_CHANNELS.has(to.channel)) {
              await queueReplyMail(ctx, db, {
                chatbotId: to.bot.id,
                channel: to.channel,
                chatId: to.chatId,
              }).catch((err: unknown) => ctx.log.error({ err }, 'could not queue the visitor’s reply mail'));
            }
            return message;
          },
        ],
        promptFragments: [
          async (bot) => {
            if (!bot.settings.enable_reservations) return '';
            const config = await bookings.config(bot.id);
            const today = localDate(ctx.now(), config.timezone);
            const required = [
              config.require_name ? 'name' : '',
              config.require_phone ? 'phone' : '',
              config.require_email ? 'e-mail' : '',
              config.require_group_size ? 'number of people' : '',
            ].filter(Boolean);
            return [
              `Reservations: you can book for "${calendarName(config, bot.business_name)}" with the reservations_* tools.`,
              `Today is ${weekdayOf(today)} ${today} in ${config.timezone}; dates and times are local to that zone.`,
              'Always call reservations_free_slots before offering times, and book only by a slot id it returned; never invent a time.',
              `Required details: ${required.join(', ') || 'none'}. Ask for the missing ones, then confirm. A hold lasts ${HOLD_MS / 60_000} minutes.`,
              'When a reservation is confirmed, tell the follower its code: they need it to change or cancel it (reservations_change, reservations_cancel).',
              'Website visitors only (the widget or the AI landing page): once a booking is confirmed, offer to send the confirmation and reminders by e-mail, optional, used only for this booking; with an address and their agreement call reservations_email.',
              'A code opens only the bookings made in this chat; for one made from another chat or channel, ask for the phone or e-mail given with it and pass it with the code. When a tool answers with `say`, tell the follower that.',
            ].join('\n');
          },
        ],
        jobs: [
          pluginJob(
            reminderJob,
            reminderHandler(
              ctx,
              db,
              (id) => findBotBasics(db, id),
              (channel) => ctx.capabilities(channel)?.push === true,
            ),
          ),
          pluginJob(bookingMailJob, bookingMailHandler(ctx, db)),
          pluginJob(replyMailJob, replyMailHandler(ctx, db)),
          pluginJob(cancelNoticeJob, cancelNoticeHandler(ctx, db)),
        ],
        routes: {
          prefix: '',
          plugin: async (app) => {
            await app.register(reservationRoutes(ctx, db, bookings));
            await app.register(visitorMailRoutes(ctx, db));
          },
        },
        // Issue 26 §5: the owner's calendars and bookings in their export (the tables cascade on deletion).
        ownerData: { export: (ownerId) => ownerReservations(db, ownerId) },
      };
    },
  });
}

/** The registered reservations plugin (plugins/index.ts). */
export const reservations = createReservationsPlugin();
