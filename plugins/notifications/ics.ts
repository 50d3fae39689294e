/**
 * A booking as a calendar entry (issue 27 §6: "an .ics attachment in the booking e-mail"), built
 * with the `ics` package (RFC 5545). One entry per reservation: its UID stays the same through
 * changes (`<reservationId>@charla`), SEQUENCE grows with each change (0 for the booking, then the
 * change's time in seconds since 2024), METHOD is REQUEST for a new or changed booking and CANCEL
 * (STATUS CANCELLED) for a cancelled one, so a calendar that imported it updates or removes it.
 */
import type { EventAttributes, ReturnObject } from 'ics';
import { z } from 'zod';

/** What the calendar needs of a booking event (plugins/reservations/events.ts BookingEvent). */
const CalendarBooking = z.object({
  kind: z.enum(['created', 'changed', 'cancelled']),
  reservationId: z.string().min(1),
  code: z.string(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  time: z.string().regex(/^\d{2}:\d{2}$/),
  partySize: z.number().nullable().optional(),
  customerName: z.string().nullable().optional(),
  at: z.string(),
  /** IANA time zone of `date`/`time`; UTC when absent or unknown. */
  timezone: z.string().nullable().optional(),
  /** Minutes the booking lasts; 60 when absent. */
  durationMinutes: z.number().int().positive().max(10_080).nullable().optional(),
});

/** The calendar attachment of a mail (nodemailer's attachment shape). */
export interface CalendarFile {
  filename: string;
  content: string;
  contentType: string;
}

/** Offset of `zone` from UTC at `utcMs`, ms (Intl; 0 for an unknown zone). */
function zoneOffset(utcMs: number, zone: string): number {
  try {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(new Date(utcMs));
    const n = (t: string) => Number(parts.find((p) => p.type === t)?.value);
    return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - utcMs;
  } catch {
    return 0;
  }
}

/** The instant (ms) of a local `YYYY-MM-DD` `HH:mm` in an IANA zone (DST-aware, two passes). */
export function localToUtc(date: string, time: string, zone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [h, min] = time.split(':').map(Number) as [number, number];
  const naive = Date.UTC(y, m - 1, d, h, min);
  const first = naive - zoneOffset(naive, zone);
  return naive - zoneOffset(first, zone);
}

const SEQUENCE_EPOCH = Date.UTC(2024, 0, 1);

/** The `ics` package's `createEvent`, loaded at the first booking mail (not at start-up: cold start). */
export type CreateEvent = (attributes: EventAttributes) => ReturnObject;
let loaded: Promise<CreateEvent> | undefined;
/** Loads (once) the `ics` package's `createEvent`. */
export function loadCalendar(): Promise<CreateEvent> {
  loaded ??= import('ics').then((m) => m.createEvent as CreateEvent);
  return loaded;
}

/**
 * The .ics of one booking event's data, or null when the data does not describe a booking (an
 * older event without the fields) or the library refuses it.
 * @param business the calendar entry's title names it; `word` is "Reserva" in the owner's language.
 * @param createEvent from {@link loadCalendar}.
 */
export function bookingCalendar(
  createEvent: CreateEvent,
  data: Record<string, unknown>,
  business: string,
  word: string,
  url: string,
): CalendarFile | null {
  const parsed = CalendarBooking.safeParse(data);
  if (!parsed.success) return null;
  const b = parsed.data;
  const start = localToUtc(b.date, b.time, b.timezone || 'UTC');
  const cancel = b.kind === 'cancelled';
  const at = Date.parse(b.at);
  const sequence =
    b.kind === 'created' || Number.isNaN(at) ? 0 : Math.max(1, Math.floor((at - SEQUENCE_EPOCH) / 1000));
  const who = [b.customerName, b.partySize ? String(b.partySize) : null].filter(Boolean).join(' · ');
  const { error, value } = createEvent({
    productId: 'charla/notifications',
    method: cancel ? 'CANCEL' : 'REQUEST',
    uid: `${b.reservationId}@charla`,
    sequence,
    status: cancel ? 'CANCELLED' : 'CONFIRMED',
    title: `${word} ${business}${who ? ` · ${who}` : ''} (${b.code})`,
    start,
    startInputType: 'utc',
    startOutputType: 'utc',
    duration: { minutes: b.durationMinutes ?? 60 },
    ...(/^https?:\/\//.test(url) ? { url } : {}),
  });
  if (error || !value) return null;
  return {
    filename: `${b.code || 'booking'}.ics`,
    content: value,
    contentType: `text/calendar; charset=utf-8; method=${cancel ? 'CANCEL' : 'REQUEST'}`,
  };
}
