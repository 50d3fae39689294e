/**
 * A bot's reservation calendar (spec 001 §3 `reservation_config`, §5, §9; issue 12 §6): the zod
 * schema shared by the plugin (validation, storage) and the dashboard's wizard (types, defaults).
 * Browser-safe: zod only.
 *
 * Beyond the spec (issue 12 is silent, a restaurant or a clinic needs them): each weekday may have
 * a break (`break_start`–`break_end`, e.g. a restaurant closed 16:30–20:00 between lunch and
 * dinner), and `slot_minutes` picks the length of a normal slot within the spec's "30 minutes to
 * 1 hour".
 */
import { z } from 'zod';

/** Weekdays in the spec's order (monday..sunday). */
export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/**
 * Every IANA time zone the runtime knows (issue 29: all of `Intl.supportedValuesOf('timeZone')`,
 * beyond spec 001 §9's six), sorted; the default stays Europe/Madrid.
 */
export function timeZones(): string[] {
  return [...Intl.supportedValuesOf('timeZone')].sort();
}

/** True when `zone` is a real IANA time zone (Intl accepts it), e.g. `Europe/Madrid`; not `Mars/Base`. */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][\w+-]*(?:\/[\w+-]+)*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Spec 001 §9: reservation types. */
export const RESERVATION_TYPES = ['normal', 'multi_hour', 'period'] as const;

/** Spec 001 §9: "Type normal: slots of 30 minutes to 1 hour". */
export const SLOT_MINUTES = [30, 45, 60] as const;

/** Spec 001 §9: max simultaneous chosen from 2 to 20 when simultaneous reservations are allowed. */
export const MAX_SIMULTANEOUS = { min: 2, max: 20 } as const;

/** Spec 001 §9: the fixed blocks of a multi-hour calendar (local times). */
export const MULTI_HOUR_BLOCKS = [
  { id: 'morning', start: '09:00', end: '13:00' },
  { id: 'afternoon', start: '13:00', end: '18:00' },
  { id: 'full_day', start: '09:00', end: '18:00' },
] as const;

/** `HH:mm`, 00:00 to 24:00. */
const Time = z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'HH:mm');

/** Minutes after midnight of `HH:mm`. */
export function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

/** One weekday's opening (spec 001 §3: enabled, start, end), with an optional break. */
export const DayHours = z
  .object({
    enabled: z.boolean(),
    start: Time,
    end: Time,
    break_start: Time.nullable().default(null),
    break_end: Time.nullable().default(null),
  })
  .refine((d) => minutesOf(d.start) < minutesOf(d.end), {
    message: 'start must be before end',
    path: ['end'],
  })
  .refine(
    (d) =>
      (d.break_start === null) === (d.break_end === null) &&
      (d.break_start === null ||
        (minutesOf(d.start) < minutesOf(d.break_start) &&
          minutesOf(d.break_start) < minutesOf(d.break_end!) &&
          minutesOf(d.break_end!) < minutesOf(d.end))),
    { message: 'the break must lie inside the day', path: ['break_start'] },
  );
export type DayHours = z.infer<typeof DayHours>;

/** The stored, validated config. */
export const ReservationConfig = z
  .object({
    /** Blank → "Reservas de {business name}" (spec 001 §5). */
    calendar_name: z.string().trim().max(120),
    /** An IANA time zone (issue 29 §Reservations), checked with Intl. */
    timezone: z.string().max(64).refine(isTimeZone, { message: 'not an IANA time zone' }),
    working_hours: z.object(
      Object.fromEntries(WEEKDAYS.map((d) => [d, DayHours])) as Record<Weekday, typeof DayHours>,
    ),
    require_name: z.boolean(),
    require_phone: z.boolean(),
    require_email: z.boolean(),
    require_group_size: z.boolean(),
    allow_comments: z.boolean(),
    reminder_24h: z.boolean(),
    reminder_2h: z.boolean(),
    reservation_type: z.enum(RESERVATION_TYPES),
    slot_minutes: z.union(
      SLOT_MINUTES.map((m) => z.literal(m)) as [z.ZodLiteral<30>, z.ZodLiteral<45>, z.ZodLiteral<60>],
    ),
    allow_simultaneous: z.boolean(),
    /** 1 unless simultaneous reservations are allowed, then 2 to 20 (spec 001 §9). */
    max_simultaneous: z.number().int().min(1).max(MAX_SIMULTANEOUS.max),
    /** Largest group accepted in one reservation (not in the spec; a restaurant's biggest table). */
    max_party_size: z.number().int().min(1).max(500),
  })
  .refine(
    (c) => (c.allow_simultaneous ? c.max_simultaneous >= MAX_SIMULTANEOUS.min : c.max_simultaneous === 1),
    {
      message: 'max_simultaneous is 1, or 2 to 20 when simultaneous reservations are allowed',
      path: ['max_simultaneous'],
    },
  );
export type ReservationConfig = z.infer<typeof ReservationConfig>;

const day = (enabled: boolean, start: string, end: string): DayHours => ({
  enabled,
  start,
  end,
  break_start: null,
  break_end: null,
});

/** Spec 001 §9 defaults: Mon–Fri 09:00–18:00 on, Sat–Sun 10:00–16:00 off, Europe/Madrid, normal, 1 at a time. */
export function defaultConfig(): ReservationConfig {
  return {
    calendar_name: '',
    timezone: 'Europe/Madrid',
    working_hours: {
      monday: day(true, '09:00', '18:00'),
      tuesday: day(true, '09:00', '18:00'),
      wednesday: day(true, '09:00', '18:00'),
      thursday: day(true, '09:00', '18:00'),
      friday: day(true, '09:00', '18:00'),
      saturday: day(false, '10:00', '16:00'),
      sunday: day(false, '10:00', '16:00'),
    },
    require_name: true,
    require_phone: true,
    require_email: false,
    require_group_size: false,
    allow_comments: true,
    reminder_24h: true,
    reminder_2h: true,
    reservation_type: 'normal',
    slot_minutes: 60,
    allow_simultaneous: false,
    max_simultaneous: 1,
    max_party_size: 20,
  };
}

/** Spec 001 §5: the calendar's name, "Reservas de {business name}" when left blank. */
export function calendarName(config: Pick<ReservationConfig, 'calendar_name'>, businessName: string): string {
  return config.calendar_name.trim() || `Reservas de ${businessName}`;
}

/** Spec 001 §5: the wizard's Next is disabled unless name and phone are both required. */
export function wizardCanAdvance(config: Pick<ReservationConfig, 'require_name' | 'require_phone'>): boolean {
  return config.require_name && config.require_phone;
}
