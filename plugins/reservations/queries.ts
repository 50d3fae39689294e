/**
 * The reservations plugin's SQL (docs/plugins.md: a plugin's queries live in its folder and take
 * `(db, …)`). Times compared with "now" take the plugin's clock as a parameter, never the
 * database's `now()`, so tests can move the clock.
 */
import { randomInt } from 'node:crypto';
import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../engine/store/database.ts';
import { defaultConfig, ReservationConfig } from './config.ts';
import type { Slot } from './slots.ts';
import type { BookingActor, ReservationStatus, ReservationsTable, ReservationTables } from './tables.ts';

/** The store with the plugin's tables. */
export type ReservationsDb = Kysely<Database & ReservationTables>;

/** A stored reservation. */
export type Reservation = Selectable<ReservationsTable>;

/** The store typed with the plugin's tables. */
export function reservationsDb(db: Kysely<Database>): ReservationsDb {
  return db.withTables<ReservationTables>();
}

/** PostgreSQL's exclusion_violation (the no-double-booking constraint), unique_violation, deadlock_detected. */
const EXCLUSION_VIOLATION = '23P01';
const UNIQUE_VIOLATION = '23505';
const DEADLOCK_DETECTED = '40P01';
/**
 * Tries of one placement before it gives up: a retry follows a unique violation (a reservation
 * code drawn twice, about 1 in 720 million) or a refusal by the exclusion constraint that the
 * lock should make impossible (a node of an older version placing without it).
 */
const PLACEMENT_TRIES = 5;

function sqlState(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err
    ? String((err as { code: unknown }).code)
    : undefined;
}

/** The filter of active reservations: confirmed, or a hold not yet expired at `now`. */
export function isActive(now: Date) {
  return (eb: ExpressionBuilder<ReservationTables, 'reservations_v1'>) =>
    eb.or([
      eb('status', '=', 'confirmed'),
      eb.and([eb('status', '=', 'hold'), eb('hold_expires_at', '>', now)]),
    ]);
}

/** Characters of a reservation code: no 0/O, 1/I/L look-alikes. */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

const CODE_DIGITS = '23456789';

/**
 * A new 6-character reservation code with at least one digit (so a follower's words, "CANCEL" or
 * "MAÑANA", are never read as a code): about 720 million codes.
 */
export function newReservationCode(): string {
  const chars = Array.from({ length: 6 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]!);
  if (!chars.some((c) => CODE_DIGITS.includes(c)))
    chars[randomInt(6)] = CODE_DIGITS[randomInt(CODE_DIGITS.length)]!;
  return chars.join('');
}

/** The bot's calendar, or null when the owner never saved one. A stored config that no longer parses gives the defaults. */
export async function findConfig(db: ReservationsDb, chatbotId: string): Promise<ReservationConfig | null> {
  const row = await db
    .selectFrom('reservation_config')
    .select('config')
    .where('chatbot_id', '=', chatbotId)
    .executeTakeFirst();
  if (!row) return null;
  const parsed = ReservationConfig.safeParse({ ...defaultConfig(), ...(row.config as object) });
  return parsed.success ? parsed.data : defaultConfig();
}

/** Creates or replaces the bot's calendar (spec 001 §8: upsert by chatbot_id). */
export async function saveConfig(
  db: ReservationsDb,
  chatbotId: string,
  config: ReservationConfig,
  now: Date,
): Promise<void> {
  const json = JSON.stringify(config);
  await db
    .insertInto('reservation_config')
    .values({ chatbot_id: chatbotId, config: json, updated_at: now })
    .onConflict((oc) => oc.column('chatbot_id').doUpdateSet({ config: json, updated_at: now }))
    .execute();
}

/** Marks the bot's holds whose time ran out as `expired` (frees their places). */
export async function expireHolds(db: ReservationsDb, chatbotId: string, now: Date): Promise<number> {
  const result = await db
    .updateTable('reservations_v1')
    .set({ status: 'expired', updated_at: now })
    .where('chatbot_ref', '=', chatbotId)
    .where('status', '=', 'hold')
    .where('hold_expires_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Active reservations (confirmed, or holds not expired) of a bot overlapping [from, to). */
export async function activeBetween(
  db: ReservationsDb,
  chatbotId: string,
  from: Date,
  to: Date,
  now: Date,
): Promise<Array<Pick<Reservation, 'reservation_id' | 'starts_at' | 'ends_at' | 'place'>>> {
  return db
    .selectFrom('reservations_v1')
    .select(['reservation_id', 'starts_at', 'ends_at', 'place'])
    .where('chatbot_ref', '=', chatbotId)
    .where('starts_at', '<', to)
    .where('ends_at', '>', from)
    .where(isActive(now))
    .execute();
}

/** What a new reservation holds, besides its place and code. */
export interface NewReservation {
  chatbotId: string;
  slot: Slot;
  service: string;
  status: 'hold' | 'confirmed';
  holdExpiresAt: Date | null;
  source: 'chat' | 'owner';
  channel: string | null;
  chatId: string | null;
  idempotencyKey: string | null;
  customerName?: string | null;
  customerContact?: string | null;
  customerEmail?: string | null;
  partySize?: number | null;
  reason?: string | null;
  now: Date;
}

/** The first place of 1 to `maxPlaces` no active reservation (but `except`) holds during the slot. */
async function firstFreePlace(
  db: ReservationsDb,
  chatbotId: string,
  slot: Pick<Slot, 'startsAt' | 'endsAt'>,
  now: Date,
  maxPlaces: number,
  except?: string,
): Promise<number | undefined> {
  const taken = new Set(
    (await activeBetween(db, chatbotId, slot.startsAt, slot.endsAt, now))
      .filter((a) => a.reservation_id !== except)
      .map((a) => a.place),
  );
  for (let place = 1; place <= maxPlaces; place++) if (!taken.has(place)) return place;
  return undefined;
}

/**
 * Runs one placement (`place`) in a transaction holding the bot's booking lock
 * (`pg_advisory_xact_lock`, released at commit), after marking the bot's run-out holds `expired`.
 * Placements of one bot run one after another, on every node, so the free place a placement reads
 * is still free when it writes: racing bookings never wait on each other's uncommitted rows under
 * the exclusion constraint (which deadlocked them, PostgreSQL aborting one after
 * `deadlock_timeout`, 1 s; 20 racing bookings then waited long enough for a pooled connection to
 * be answered 503). The constraint stays as the guarantee. A unique violation, a deadlock or an
 * exclusion violation tries the whole placement again ({@link PLACEMENT_TRIES}); after the last
 * try an exclusion violation is `full`, anything else is thrown.
 */
async function placeUnderBookingLock<R>(
  db: ReservationsDb,
  chatbotId: string,
  now: Date,
  place: (trx: ReservationsDb) => Promise<R | 'full'>,
): Promise<R | 'full'> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtextextended(${`charla:reservations:${chatbotId}`}, 0))`.execute(
          trx,
        );
        await expireHolds(trx, chatbotId, now);
        return place(trx);
      });
    } catch (err) {
      const state = sqlState(err);
      const retried =
        state === UNIQUE_VIOLATION || state === DEADLOCK_DETECTED || state === EXCLUSION_VIOLATION;
      if (retried && attempt < PLACEMENT_TRIES) continue;
      if (state === EXCLUSION_VIOLATION) return 'full';
      throw err;
    }
  }
}

/**
 * Stores a reservation on the first free place of its slot (1 to `maxPlaces`), under the bot's
 * booking lock ({@link placeUnderBookingLock}), so racing bookings cannot share a place.
 * @returns the reservation; the one stored before under the same idempotency key (a replay); or
 *   `full` when every place of the slot is taken.
 */
export async function insertOnFreePlace(
  db: ReservationsDb,
  r: NewReservation,
  maxPlaces: number,
): Promise<Reservation | 'full'> {
  return placeUnderBookingLock(db, r.chatbotId, r.now, async (trx) => {
    if (r.idempotencyKey) {
      const before = await findByIdempotencyKey(trx, r.idempotencyKey);
      if (before) return before;
    }
    const place = await firstFreePlace(trx, r.chatbotId, r.slot, r.now, maxPlaces);
    if (place === undefined) return 'full';
    return trx
      .insertInto('reservations_v1')
      .values({
        reservation_code: newReservationCode(),
        chatbot_ref: r.chatbotId,
        customer_name: r.customerName ?? null,
        customer_contact: r.customerContact ?? null,
        customer_email: r.customerEmail ?? null,
        reason: r.reason ?? null,
        service: r.service,
        party_size: r.partySize ?? null,
        reserved_date: r.slot.date,
        reserved_time: r.slot.start,
        slot_id: r.slot.id,
        starts_at: r.slot.startsAt,
        ends_at: r.slot.endsAt,
        place,
        status: r.status,
        hold_expires_at: r.holdExpiresAt,
        source: r.source,
        channel: r.channel,
        chat_id: r.chatId,
        idempotency_key: r.idempotencyKey,
        created_at: r.now,
        updated_at: r.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/** The reservation stored under an idempotency key. */
export async function findByIdempotencyKey(
  db: ReservationsDb,
  key: string,
): Promise<Reservation | undefined> {
  return db.selectFrom('reservations_v1').selectAll().where('idempotency_key', '=', key).executeTakeFirst();
}

/** A bot's reservation by its code (case-insensitive). */
export async function findByCode(
  db: ReservationsDb,
  chatbotId: string,
  code: string,
): Promise<Reservation | undefined> {
  return db
    .selectFrom('reservations_v1')
    .selectAll()
    .where('chatbot_ref', '=', chatbotId)
    .where('reservation_code', '=', code.trim().toUpperCase())
    .executeTakeFirst();
}

/** A reservation by id. */
export async function findReservation(db: ReservationsDb, id: string): Promise<Reservation | undefined> {
  return db.selectFrom('reservations_v1').selectAll().where('reservation_id', '=', id).executeTakeFirst();
}

/** The details a confirmation stores. */
export interface ReservationDetails {
  customerName?: string | null | undefined;
  customerContact?: string | null | undefined;
  customerEmail?: string | null | undefined;
  partySize?: number | null | undefined;
  reason?: string | null | undefined;
}

/** Fields of {@link ReservationDetails} that were given, as columns. */
export function detailColumns(d: ReservationDetails) {
  return {
    ...(d.customerName !== undefined ? { customer_name: d.customerName } : {}),
    ...(d.customerContact !== undefined ? { customer_contact: d.customerContact } : {}),
    ...(d.customerEmail !== undefined ? { customer_email: d.customerEmail } : {}),
    ...(d.partySize !== undefined ? { party_size: d.partySize } : {}),
    ...(d.reason !== undefined ? { reason: d.reason } : {}),
  };
}

/**
 * Moves a reservation to another slot, on the first free place there, under the bot's booking lock
 * ({@link placeUnderBookingLock}). `status` also sets its status (an expired hold taken again as
 * `confirmed`: only active rows are checked by the constraint, so the status changes in the same
 * statement). `changedBy` records a move by the follower or the owner (when, who, the start
 * before: issue 27 §6).
 * @returns the moved reservation, or `full`.
 */
export async function moveToFreePlace(
  db: ReservationsDb,
  reservation: Reservation,
  slot: Slot,
  service: string,
  maxPlaces: number,
  now: Date,
  status?: 'hold' | 'confirmed',
  changedBy?: BookingActor,
): Promise<Reservation | 'full'> {
  return placeUnderBookingLock(db, reservation.chatbot_ref, now, async (trx) => {
    const place = await firstFreePlace(
      trx,
      reservation.chatbot_ref,
      slot,
      now,
      maxPlaces,
      reservation.reservation_id,
    );
    if (place === undefined) return 'full';
    const moved = await trx
      .updateTable('reservations_v1')
      .set({
        slot_id: slot.id,
        reserved_date: slot.date,
        reserved_time: slot.start,
        starts_at: slot.startsAt,
        ends_at: slot.endsAt,
        service,
        place,
        ...(status ? { status, hold_expires_at: null } : {}),
        ...(changedBy ? { changed_at: now, changed_by: changedBy, changed_from: reservation.starts_at } : {}),
        reminder_24h_sent_at: null,
        reminder_2h_sent_at: null,
        updated_at: now,
      })
      .where('reservation_id', '=', reservation.reservation_id)
      .returningAll()
      .executeTakeFirst();
    return moved ?? 'full';
  });
}

/**
 * Sets a reservation's status (and details); `cancelledBy` records who cancelled it, at `now`
 * (issue 27 §6). Returns the updated row.
 */
export async function updateReservation(
  db: ReservationsDb,
  id: string,
  change: {
    status?: ReservationStatus;
    holdExpiresAt?: Date | null;
    details?: ReservationDetails;
    cancelledBy?: BookingActor;
  },
  now: Date,
): Promise<Reservation | undefined> {
  return db
    .updateTable('reservations_v1')
    .set({
      ...(change.status ? { status: change.status } : {}),
      ...(change.holdExpiresAt !== undefined ? { hold_expires_at: change.holdExpiresAt } : {}),
      ...detailColumns(change.details ?? {}),
      ...(change.cancelledBy ? { cancelled_at: now, cancelled_by: change.cancelledBy } : {}),
      updated_at: now,
    })
    .where('reservation_id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Records that a reminder went out (once: only if not recorded before). @returns whether this call recorded it. */
export async function markReminderSent(
  db: ReservationsDb,
  id: string,
  kind: '24h' | '2h',
  now: Date,
): Promise<boolean> {
  const column = kind === '24h' ? 'reminder_24h_sent_at' : 'reminder_2h_sent_at';
  const r = await db
    .updateTable('reservations_v1')
    .set({ [column]: now })
    .where('reservation_id', '=', id)
    .where(column, 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** A bot's language and name (for reminders), or undefined when it was deleted. */
export async function findBotBasics(
  db: ReservationsDb,
  chatbotId: string,
): Promise<{ idioma: string; business_name: string; user_id: string } | undefined> {
  return db
    .selectFrom('chatbots')
    .select(['idioma', 'business_name', 'user_id'])
    .where('id', '=', chatbotId)
    .executeTakeFirst();
}
