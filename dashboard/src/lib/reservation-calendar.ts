/**
 * The arithmetic behind the reservations calendar (issue 27 §6; ReservationCalendar.tsx): local
 * dates as `YYYY-MM-DD` strings of the calendar's time zone (the server gives each booking's local
 * date, start and end, and today's date), whole days added on them, Monday-first weeks, and the
 * side-by-side lanes of bookings that overlap (a calendar with several places at a time). No
 * clock and no time zone of the browser are involved: what the owner sees is the business's time.
 */
import type { ReservationRow } from './reservations.ts';

/** A local date `days` days after `date` (negative: before), both `YYYY-MM-DD`. */
export function shiftDate(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The Monday on or before a local date (weeks start on Monday, as in Spain and most of Europe). */
export function mondayOf(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay(); // 0 = Sunday
  return shiftDate(date, -((weekday + 6) % 7));
}

/** The local dates a view shows: the day itself, or the 7 days of its Monday-first week. */
export function daysOf(mode: 'day' | 'week', anchor: string): string[] {
  if (mode === 'day') return [anchor];
  const monday = mondayOf(anchor);
  return Array.from({ length: 7 }, (_, i) => shiftDate(monday, i));
}

/** Minutes since local midnight of `HH:mm`. */
export function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

/** A booking placed on a day's column: its minutes from midnight, and its lane among overlapping ones. */
export interface Placed {
  row: ReservationRow;
  /** Local start and end, minutes since midnight (an end at or before the start, past midnight, is 24:00). */
  start: number;
  end: number;
  /** 0-based lane and the number of lanes of its group of overlapping bookings. */
  lane: number;
  lanes: number;
}

/**
 * A day's bookings in time order, each in the first lane free at its start; bookings that overlap
 * (directly or through others) share the group's lane count, so they sit side by side.
 */
export function placeDay(rows: readonly ReservationRow[]): Placed[] {
  const sorted = rows
    .map((row) => {
      const start = minutesOf(row.start);
      const end = minutesOf(row.end);
      return { row, start, end: end > start ? end : 24 * 60, lane: 0, lanes: 1 };
    })
    .sort((a, b) => a.start - b.start || a.end - b.end);
  let group: Placed[] = [];
  let laneEnds: number[] = [];
  let groupEnd = -1;
  const close = () => {
    for (const p of group) p.lanes = laneEnds.length;
    group = [];
    laneEnds = [];
  };
  for (const p of sorted) {
    if (p.start >= groupEnd) close();
    const free = laneEnds.findIndex((end) => end <= p.start);
    p.lane = free === -1 ? laneEnds.length : free;
    laneEnds[p.lane] = p.end;
    group.push(p);
    groupEnd = Math.max(groupEnd, p.end);
  }
  close();
  return sorted;
}

/**
 * The hours the grid spans: 09:00 to 18:00 at least, widened to the whole hours of the bookings
 * shown. @returns the first hour and the hour after the last (0 to 24).
 */
export function hourSpan(placed: readonly Placed[]): { first: number; last: number } {
  let first = 9;
  let last = 18;
  for (const p of placed) {
    first = Math.min(first, Math.floor(p.start / 60));
    last = Math.max(last, Math.ceil(p.end / 60));
  }
  return { first: Math.max(0, first), last: Math.min(24, last) };
}

/**
 * A date in the interface language: "sáb 28" (`short`), "sáb" (`weekday`) or "sábado, 28 de
 * noviembre" (`long`).
 */
export function dayName(date: string, lang: string, style: 'short' | 'weekday' | 'long'): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const options: Intl.DateTimeFormatOptions =
    style === 'long'
      ? { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }
      : style === 'weekday'
        ? { weekday: 'short', timeZone: 'UTC' }
        : { weekday: 'short', day: 'numeric', timeZone: 'UTC' };
  return new Intl.DateTimeFormat(lang, options).format(new Date(Date.UTC(y, m - 1, d, 12)));
}

/** An instant (ISO) as the owner reads it in the calendar's time zone: "27 nov, 15:40". */
export function instantText(iso: string, lang: string, timezone: string): string {
  return new Intl.DateTimeFormat(lang, {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: timezone,
  }).format(new Date(iso));
}
