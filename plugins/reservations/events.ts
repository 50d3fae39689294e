/**
 * What the reservations plugin tells other plugins (issue 27 §1): a booking confirmed, moved or
 * cancelled, through the registry's events (`ctx.events`), never by another plugin reading its
 * tables. The owner's notifications (plugins/notifications) listen to {@link BOOKING_EVENT}.
 */
import type { PluginContext } from '../../engine/registry/index.ts';
import type { Asker } from './access.ts';
import type { Reservation } from './queries.ts';

/** The registry event a confirmed, moved or cancelled booking emits, with a {@link BookingEvent}. */
export const BOOKING_EVENT = 'reservations.booking';

/** What {@link BOOKING_EVENT} carries: the booking after the change, its local date and time. */
export interface BookingEvent {
  kind: 'created' | 'changed' | 'cancelled';
  /** Who did it: the follower in a chat, or the owner (the viewer). */
  by: 'follower' | 'owner';
  chatbotId: string;
  reservationId: string;
  code: string;
  /** Local `YYYY-MM-DD` and `HH:mm` in the calendar's time zone. */
  date: string;
  time: string;
  partySize: number | null;
  customerName: string | null;
  /** The follower's channel and chat id; null for a booking added by hand. */
  channel: string | null;
  chatId: string | null;
  /** ISO instant of the change (the plugin's clock). */
  at: string;
  /** The calendar's IANA time zone (`date` and `time` are local to it), e.g. `Europe/Madrid` (for an .ics). */
  timezone: string;
  /** The booked slot's length in minutes (end − start); null when the stored range is unusable. */
  durationMinutes: number | null;
}

/** Who asks, as a {@link BookingEvent} names them. */
export function byOf(asker: Asker): BookingEvent['by'] {
  return asker.kind === 'owner' ? 'owner' : 'follower';
}

/**
 * The minutes from a booking's start to its end, or null when they are not a positive whole
 * number of minutes (never for a stored row: the table checks ends_at > starts_at).
 */
export function durationOf(r: Pick<Reservation, 'starts_at' | 'ends_at'>): number | null {
  const ms = new Date(r.ends_at).getTime() - new Date(r.starts_at).getTime();
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms / 60_000) : null;
}

/**
 * Emits {@link BOOKING_EVENT} for a booking; `timezone` is the calendar's (IANA). Without an event
 * bus (a test's context) nothing. Never throws (the registry logs a listener's error).
 */
export async function emitBooking(
  ctx: Partial<Pick<PluginContext, 'events' | 'now'>>,
  kind: BookingEvent['kind'],
  r: Reservation,
  by: BookingEvent['by'],
  timezone: string,
): Promise<void> {
  if (!ctx.events) return;
  const event: BookingEvent = {
    kind,
    by,
    chatbotId: r.chatbot_ref,
    reservationId: r.reservation_id,
    code: r.reservation_code,
    date: r.reserved_date,
    time: r.reserved_time,
    partySize: r.party_size,
    customerName: r.customer_name,
    channel: r.channel,
    chatId: r.chat_id,
    at: (ctx.now?.() ?? new Date()).toISOString(),
    timezone,
    durationMinutes: durationOf(r),
  };
  await ctx.events.emit(BOOKING_EVENT, event);
}
