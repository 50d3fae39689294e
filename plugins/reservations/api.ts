/**
 * The reservations API's contract (issue 12 §10; spec 001 §8): zod schemas of the owner routes'
 * bodies and answers, shared by the routes (validation, OpenAPI) and the dashboard (types).
 * Browser-safe: zod only.
 */
import { z } from 'zod';
import { ReservationConfig } from './config.ts';

/** An error answer; `code` lets the dashboard say it in the owner's language. */
export const ReservationsErrorBody = z.object({ error: z.string(), code: z.string().optional() });

/** `GET /api/reservations/:chatbotId/config`. */
export const ConfigAnswer = z.object({
  config: ReservationConfig,
  /** False until the owner saves the calendar once (the answer then holds the defaults). */
  saved: z.boolean(),
  /** The calendar's name as followers see it ("Reservas de {business name}" when blank). */
  calendarName: z.string(),
});
export type ConfigAnswer = z.infer<typeof ConfigAnswer>;

/** The viewer's periods (spec 001 §2, §9), plus `upcoming` (today on; the viewer's default). */
export const PERIODS = ['upcoming', 'today', 'week', 'past', 'all'] as const;
export type Period = (typeof PERIODS)[number];

/**
 * The viewer's state filter (issue 27 §6): `active` (confirmed and current holds: the default),
 * `changed` (moved at least once), `cancelled`, `all` (active and cancelled).
 */
export const VIEWER_STATES = ['active', 'changed', 'cancelled', 'all'] as const;
export type ViewerState = (typeof VIEWER_STATES)[number];

/** Who cancelled or moved a booking. */
const Actor = z.enum(['follower', 'owner']);

/** One reservation as the viewer shows it. */
export const ReservationRow = z.object({
  id: z.string(),
  code: z.string(),
  status: z.enum(['hold', 'confirmed', 'cancelled', 'expired']),
  /** Local date `YYYY-MM-DD`, start and end `HH:mm` in the calendar's time zone. */
  date: z.string(),
  start: z.string(),
  end: z.string(),
  startsAt: z.string(),
  customer_name: z.string().nullable(),
  customer_contact: z.string().nullable(),
  customer_email: z.string().nullable(),
  /**
   * Issue 28 §2: a web visitor's mails for this booking (`on`: e-mail given with consent; `off`:
   * they unsubscribed); absent when no e-mail was given for mails.
   */
  mail: z.enum(['on', 'off']).optional(),
  party_size: z.number().int().nullable(),
  reason: z.string().nullable(),
  service: z.string(),
  is_paid: z.boolean(),
  is_completed: z.boolean(),
  source: z.enum(['chat', 'owner']),
  /** The follower's channel (`telegram`, `web`, …), null for one added by hand. */
  channel: z.string().nullable(),
  /**
   * Issue 27 §6: ISO instants of the cancellation and of the last move, who did each (`by` null:
   * cancelled before this was recorded), and the start (ISO) the booking had before its last move.
   */
  cancelledAt: z.string().nullable(),
  cancelledBy: Actor.nullable(),
  changedAt: z.string().nullable(),
  changedBy: Actor.nullable(),
  changedFrom: z.string().nullable(),
});
export type ReservationRow = z.infer<typeof ReservationRow>;

/**
 * `GET /api/reservations/:chatbotId`: the calendar's IANA time zone (the rows' local dates and
 * times, and the owner's times, are in it) and today's local `YYYY-MM-DD` there.
 */
export const ListAnswer = z.object({
  timezone: z.string(),
  today: z.string(),
  reservations: z.array(ReservationRow),
});
export type ListAnswer = z.infer<typeof ListAnswer>;

/** `GET /api/reservations/:chatbotId/slots`: a day's free slots. */
export const SlotsAnswer = z.object({
  slots: z.array(
    z.object({
      id: z.string(),
      date: z.string(),
      start: z.string(),
      end: z.string(),
      free: z.number().int(),
    }),
  ),
});
export type SlotsAnswer = z.infer<typeof SlotsAnswer>;

/** `POST /api/reservations/:chatbotId`: a reservation added by the owner. */
export const AddBody = z.object({
  slotId: z.string().min(1).max(40),
  customer_name: z.string().trim().max(120).optional(),
  phone: z.string().trim().max(24).optional(),
  email: z.string().trim().max(200).optional(),
  party_size: z.number().int().min(1).max(500).optional(),
  comments: z.string().trim().max(500).optional(),
});
export type AddBody = z.infer<typeof AddBody>;

/** `PATCH /api/reservations/:chatbotId/:reservationId`: the paid and completed flags. */
export const FlagsBody = z.object({ is_paid: z.boolean().optional(), is_completed: z.boolean().optional() });

/** Refusal codes of adding by hand (the dashboard words them). */
export const ADD_CODES = ['unknown_slot', 'full', 'too_many', 'missing', 'invalid'] as const;

/**
 * Spec 001 §4 Reservation status display: HOLD, CONFIRMADA, CONFIRMADA Y ABONADA, CONFIRMADA Y
 * FINALIZADA (completed takes precedence over paid). Returns the key of the dashboard's text.
 */
export function statusKey(
  r: Pick<ReservationRow, 'status' | 'is_paid' | 'is_completed'>,
): 'hold' | 'confirmed' | 'paid' | 'completed' | 'other' {
  if (r.status === 'hold') return 'hold';
  if (r.status !== 'confirmed') return 'other';
  if (r.is_completed) return 'completed';
  if (r.is_paid) return 'paid';
  return 'confirmed';
}
