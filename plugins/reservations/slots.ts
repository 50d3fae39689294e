/**
 * Bookable slots, generated on the server from a bot's calendar in the business's time zone
 * (issue 12 §7; spec 001 §9). The model and the follower book by slot id, never by a free-typed
 * time, and the id is checked against the slots generated here before anything is stored.
 *
 * Time zones with @date-fns/tz: slots are laid out on the local wall clock and each local time is
 * converted to an instant. A local time that does not exist (the hour skipped when clocks go
 * forward, e.g. 02:00–03:00 in Madrid on 2026-03-29) is never offered; a local time that happens
 * twice (clocks going back, 02:00–03:00 on 2026-10-25) is offered once, at its later instant, so
 * no slot is doubled.
 */
import { TZDate } from '@date-fns/tz';
import { type DayHours, MULTI_HOUR_BLOCKS, minutesOf, type ReservationConfig, WEEKDAYS } from './config.ts';

/** One bookable slot. */
export interface Slot {
  /** `YYYY-MM-DDTHH:mm-HH:mm` (local date, start, end): what the model and the follower book by. */
  id: string;
  /** Local date `YYYY-MM-DD`. */
  date: string;
  /** Local start and end `HH:mm`. */
  start: string;
  end: string;
  startsAt: Date;
  endsAt: Date;
  /** For multi-hour calendars: `morning`, `afternoon` or `full_day`. */
  block?: string;
}

/** The local calendar date `YYYY-MM-DD` of an instant in a time zone. */
export function localDate(instant: Date, timezone: string): string {
  const t = new TZDate(instant.getTime(), timezone);
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}`;
}

/** The local wall time `HH:mm` of an instant in a time zone. */
export function localTime(instant: Date, timezone: string): string {
  const t = new TZDate(instant.getTime(), timezone);
  return `${pad(t.getHours())}:${pad(t.getMinutes())}`;
}

/** `YYYY-MM-DD` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const u = new Date(Date.UTC(y, m - 1, d + days));
  return `${u.getUTCFullYear()}-${pad(u.getUTCMonth() + 1)}-${pad(u.getUTCDate())}`;
}

/** The weekday of a local date, in the config's names. */
export function weekdayOf(date: string): (typeof WEEKDAYS)[number] {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const sundayFirst = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return WEEKDAYS[(sundayFirst + 6) % 7]!;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function hhmm(minutes: number): string {
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/**
 * The instant of a local date and wall time, or null when that wall time does not exist there
 * (skipped by a DST change). `24:00` is midnight of the next day.
 */
export function instantOf(date: string, time: string, timezone: string): Date | null {
  if (time === '24:00') return instantOf(addDays(date, 1), '00:00', timezone);
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [h, min] = time.split(':').map(Number) as [number, number];
  const t = new TZDate(y, m - 1, d, h, min, 0, timezone);
  if (t.getHours() !== h || t.getMinutes() !== min || t.getDate() !== d) return null;
  return new Date(t.getTime());
}

/** The open intervals of a day, in local minutes (the day minus its break). */
function openIntervals(hours: DayHours): Array<[number, number]> {
  const start = minutesOf(hours.start);
  const end = minutesOf(hours.end);
  if (hours.break_start && hours.break_end)
    return [
      [start, minutesOf(hours.break_start)],
      [minutesOf(hours.break_end), end],
    ];
  return [[start, end]];
}

/**
 * Slots of a date by calendar and date: they never change for one config, and converting local
 * times through Intl is the costly part of a turn that lists slots (`npm run bench`). Bounded.
 */
const memo = new Map<string, Slot[]>();
const MEMO_MAX = 5000;

/** Every slot of one local date, past ones included (none on a closed day). */
export function slotsOfDate(config: ReservationConfig, date: string): Slot[] {
  const key = `${date}|${config.timezone}|${config.reservation_type}|${config.slot_minutes}|${JSON.stringify(config.working_hours[weekdayOf(date)])}`;
  const known = memo.get(key);
  if (known) return known;
  const slots = computeSlots(config, date);
  if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!);
  memo.set(key, slots);
  return slots;
}

function computeSlots(config: ReservationConfig, date: string): Slot[] {
  const hours = config.working_hours[weekdayOf(date)];
  if (!hours.enabled) return [];
  const candidates: Array<{ start: number; end: number; block?: string }> = [];
  if (config.reservation_type === 'normal') {
    for (const [from, to] of openIntervals(hours))
      for (let s = from; s + config.slot_minutes <= to; s += config.slot_minutes)
        candidates.push({ start: s, end: s + config.slot_minutes });
  } else if (config.reservation_type === 'multi_hour') {
    for (const b of MULTI_HOUR_BLOCKS)
      candidates.push({ start: minutesOf(b.start), end: minutesOf(b.end), block: b.id });
  } else {
    // period: the whole opening of the day (a room, a venue, a day's hire).
    candidates.push({ start: minutesOf(hours.start), end: minutesOf(hours.end) });
  }
  const slots: Slot[] = [];
  for (const c of candidates) {
    const start = hhmm(c.start);
    const end = hhmm(c.end);
    const startsAt = instantOf(date, start, config.timezone);
    if (!startsAt) continue; // a local time the DST change skips
    // An end the DST change skips: the slot lasts its length in real time (01:00–02:00 on the
    // day clocks go forward at 02:00 ends at 03:00 local).
    const endsAt =
      instantOf(date, end, config.timezone) ?? new Date(startsAt.getTime() + (c.end - c.start) * 60_000);
    if (endsAt <= startsAt) continue;
    slots.push({
      id: `${date}T${start}-${end}`,
      date,
      start,
      end,
      startsAt,
      endsAt,
      ...(c.block ? { block: c.block } : {}),
    });
  }
  return slots;
}

/**
 * The slots from local date `from` for `days` days that start after `now`.
 * @param days 1 to 62.
 */
export function upcomingSlots(config: ReservationConfig, from: string, days: number, now: Date): Slot[] {
  const out: Slot[] = [];
  for (let i = 0; i < Math.min(Math.max(days, 1), 62); i++)
    for (const slot of slotsOfDate(config, addDays(from, i))) if (slot.startsAt > now) out.push(slot);
  return out;
}

/** The shape of a slot id. */
export const SLOT_ID = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})-(\d{2}:\d{2})$/;

/**
 * The slot a slot id names, if the calendar really has it (on that date, with that start and end).
 * @returns the slot, or null for an id the calendar does not generate (a free-typed time).
 */
export function findSlot(config: ReservationConfig, slotId: string): Slot | null {
  const m = SLOT_ID.exec(slotId.trim());
  if (!m) return null;
  return slotsOfDate(config, m[1]!).find((s) => s.id === slotId.trim()) ?? null;
}
