/**
 * Reminders 24 h and 2 h before a confirmed reservation (issue 12 §9; spec 001 §9), as durable
 * jobs (engine/jobs): scheduled when a reservation is confirmed or moved, keyed by reservation,
 * kind and start so each is queued once; claimed once across processes and retried after a crash.
 * The handler re-reads the reservation: nothing goes out for a cancelled, deleted or moved one (a
 * moved one has its own jobs for its new start), nor when the owner turned that reminder off.
 * `reminder_<kind>_sent_at` is set after the channel accepted it, so a retry after a success sends
 * nothing; a process killed between the send and that mark (a few ms) is the one case that repeats.
 */
import { z } from 'zod';
import { defineJob, type Job } from '../../engine/jobs/index.ts';
import type { PluginContext } from '../../engine/registry/index.ts';
import {
  findConfig,
  findReservation,
  markReminderSent,
  type Reservation,
  type ReservationsDb,
} from './queries.ts';
import { reminderText } from './texts.ts';

/** The reminders and how long before the start each is due, ms. */
export const REMINDERS = { '24h': 24 * 3_600_000, '2h': 2 * 3_600_000 } as const;
export type ReminderKind = keyof typeof REMINDERS;

/** One reminder job. */
export const reminderJob = defineJob({
  name: 'reservations.reminder',
  data: z.object({ reservationId: z.string(), kind: z.enum(['24h', '2h']), startsAt: z.string() }),
  retryDelaySeconds: 30,
  retryLimit: 8,
  leaseSeconds: 60,
  concurrency: 50,
});

/**
 * Queues the reservation's reminders that the calendar enables and that are still ahead. Due times
 * follow the plugin's clock: a job runs `due − now()` from now in real time (tests move the clock).
 */
export async function scheduleReminders(
  ctx: Pick<PluginContext, 'jobs' | 'now'>,
  reservation: Pick<Reservation, 'reservation_id' | 'starts_at'>,
  enabled: { reminder_24h: boolean; reminder_2h: boolean },
): Promise<number> {
  const startsAt = new Date(reservation.starts_at);
  const now = ctx.now();
  let queued = 0;
  for (const kind of ['24h', '2h'] as const) {
    if (!(kind === '24h' ? enabled.reminder_24h : enabled.reminder_2h)) continue;
    const due = startsAt.getTime() - REMINDERS[kind];
    if (due <= now.getTime()) continue; // booked less than 24 h (or 2 h) ahead: that reminder is past
    await ctx.jobs.send(
      reminderJob,
      { reservationId: reservation.reservation_id, kind, startsAt: startsAt.toISOString() },
      {
        runAt: new Date(Date.now() + (due - now.getTime())),
        key: `${reservation.reservation_id}:${kind}:${startsAt.toISOString()}`,
      },
    );
    queued++;
  }
  return queued;
}

/** The reminder job's handler. */
export function reminderHandler(
  ctx: Pick<PluginContext, 'send' | 'now' | 'log'>,
  db: ReservationsDb,
  bots: (chatbotId: string) => Promise<{ idioma: string; business_name: string } | undefined>,
  canPush: (channel: string) => boolean,
) {
  return async (job: Job<z.infer<typeof reminderJob.data>>): Promise<void> => {
    const { reservationId, kind, startsAt } = job.data;
    const r = await findReservation(db, reservationId);
    if (r?.status !== 'confirmed') return;
    if (new Date(r.starts_at).toISOString() !== startsAt) return; // moved: its new jobs remind
    if ((kind === '24h' ? r.reminder_24h_sent_at : r.reminder_2h_sent_at) !== null) return;
    const config = await findConfig(db, r.chatbot_ref);
    if (config && !(kind === '24h' ? config.reminder_24h : config.reminder_2h)) return;
    const bot = await bots(r.chatbot_ref);
    if (!bot || !r.channel || !r.chat_id) {
      // Added by hand in the viewer: no follower channel to remind.
      await markReminderSent(db, r.reservation_id, kind, ctx.now());
      return;
    }
    if (!canPush(r.channel)) {
      // The web widget and the test chat answer inside the visitor's request and cannot push yet
      // (issue 14): nothing to retry; the reservation's code and time were in the confirmation.
      ctx.log.info({ reservationId, kind, channel: r.channel }, 'reminder not sent: the channel cannot push');
      await markReminderSent(db, r.reservation_id, kind, ctx.now());
      return;
    }
    await ctx.send(
      { chatbotId: r.chatbot_ref, channel: r.channel, chatId: r.chat_id },
      {
        text: reminderText(bot.idioma, kind, r, bot.business_name, config?.timezone ?? 'Europe/Madrid'),
        // Issue 28: outside WhatsApp's 24-hour window this goes out as the approved template.
        template: {
          id: kind === '24h' ? 'reminder_24h' : 'reminder_2h',
          params: [
            bot.business_name,
            { when: new Date(r.starts_at).toISOString(), timeZone: config?.timezone ?? 'Europe/Madrid' },
            r.reservation_code,
          ],
        },
      },
    );
    await markReminderSent(db, r.reservation_id, kind, ctx.now());
    ctx.log.info({ reservationId, kind }, 'reservation reminder sent');
  };
}
