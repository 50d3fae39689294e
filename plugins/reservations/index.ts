import { definePlugin, type FeaturePlugin, pluginJob } from '../../engine/registry/index.ts';
import { calendarName } from './config.ts';
import { reservationDialogue } from './dialogue.ts';
import { migrations } from './migrations.ts';
import { ownerReservations } from './owner-queries.ts';
import { findBotBasics, findConfig, reservationsDb } from './queries.ts';
import { reminderHandler, reminderJob } from './reminders.ts';
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
      return {
        tools: reservationTools(bookings),
        offline: [reservationDialogue(db, bookings)],
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
        ],
        routes: { prefix: '', plugin: reservationRoutes(ctx, db, bookings) },
        // Issue 26 §5: the owner's calendars and bookings in their export (the tables cascade on deletion).
        ownerData: { export: (ownerId) => ownerReservations(db, ownerId) },
      };
    },
  });
}

/** The registered reservations plugin (plugins/index.ts). */
export const reservations = createReservationsPlugin();
