/**
 * The reservations plugin's tables (migrations.ts) as Kysely types (spec 001 §3).
 */
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

/** A reservation's state: `hold` (placed, waiting for the follower's details, expires), `confirmed`, `cancelled`, `expired`. */
export type ReservationStatus = 'hold' | 'confirmed' | 'cancelled' | 'expired';

/** Who cancelled or moved a booking: the follower in a chat, or the owner. */
export type BookingActor = 'follower' | 'owner';

/** One bot's calendar (`config` is the zod-checked {@link import('./config.ts').ReservationConfig}). */
export interface ReservationConfigTable {
  chatbot_id: string;
  config: Json<unknown>;
  updated_at: Timestamp;
}

/** A reservation (spec 001 §3 `reservations_v1`, with the columns booking and reminders need). */
export interface ReservationsTable {
  reservation_id: Generated<string>;
  /** Short code the follower quotes to look up, change or cancel (6 characters, no look-alikes). */
  reservation_code: string;
  chatbot_ref: string;
  customer_name: string | null;
  /** Phone (spec: customer_contact). */
  customer_contact: string | null;
  customer_email: string | null;
  /** Comments (spec: reason). */
  reason: string | null;
  /** Text describing the type and slot (spec: service), e.g. `normal 2026-11-28 14:00-15:00`. */
  service: string;
  party_size: number | null;
  /** Local date `YYYY-MM-DD` and start `HH:mm` in the calendar's time zone. */
  reserved_date: string;
  reserved_time: string;
  slot_id: string;
  starts_at: Timestamp;
  ends_at: Timestamp;
  /** Which of the slot's `max_simultaneous` places it takes (the exclusion constraint's key). */
  place: number;
  status: ReservationStatus;
  hold_expires_at: Timestamp | null;
  is_paid: Generated<boolean>;
  is_completed: Generated<boolean>;
  /** `chat` (a follower booked) or `owner` (added by hand in the viewer). */
  source: 'chat' | 'owner';
  /** The follower's channel and chat id (where reminders go); null for a reservation added by hand. */
  channel: string | null;
  chat_id: string | null;
  /** The tool call's idempotency key: a replayed follower message books once. */
  idempotency_key: string | null;
  reminder_24h_sent_at: Timestamp | null;
  reminder_2h_sent_at: Timestamp | null;
  /** When and by whom it was cancelled (issue 27 §6); `cancelled_by` null for rows cancelled before that was kept. */
  cancelled_at: Timestamp | null;
  cancelled_by: BookingActor | null;
  /** When and by whom it was last moved to another slot, and the start it had before (issue 27 §6). */
  changed_at: Timestamp | null;
  changed_by: BookingActor | null;
  changed_from: Timestamp | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** The offline booking dialogue's state per follower (dialogue.ts). */
export interface ReservationDialoguesTable {
  chatbot_id: string;
  channel: string;
  chat_id: string;
  state: Json<unknown>;
  updated_at: Timestamp;
}

/** The plugin's tables, for `ctx.db.withTables<ReservationTables>()`. */
export type ReservationTables = {
  reservation_config: ReservationConfigTable;
  reservations_v1: ReservationsTable;
  reservation_dialogues: ReservationDialoguesTable;
};
