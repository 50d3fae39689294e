/**
 * The reservations plugin's SQL for the owner's viewer and routes (routes.ts): the owner's bot,
 * the list of a bot's reservations, the paid and completed flags, deletion. Split from queries.ts
 * (booking) to keep each file short.
 */
import type { ViewerState } from './api.ts';
import { isActive, type Reservation, type ReservationsDb } from './queries.ts';

/** The viewer's period filter (spec 001 §2, §9: today, week = last 7 days, past, all). */
export type ViewerPeriod = 'today' | 'week' | 'past' | 'all';

/**
 * A bot's reservations for the owner's viewer, soonest first, at most 500. By `state` (issue 27
 * §6): `active` (confirmed and current holds, shown as HOLD: spec 001 §2), `changed` (moved at
 * least once, cancelled since or not), `cancelled`, `all` (active and cancelled; never the holds
 * that expired unconfirmed).
 */
export async function listForOwner(
  db: ReservationsDb,
  chatbotId: string,
  range: { from?: Date; to?: Date },
  now: Date,
  state: ViewerState = 'active',
): Promise<Reservation[]> {
  let q = db
    .selectFrom('reservations_v1')
    .selectAll()
    .where('chatbot_ref', '=', chatbotId)
    .where((eb) =>
      state === 'cancelled'
        ? eb('status', '=', 'cancelled')
        : state === 'changed'
          ? eb.and([
              eb('changed_at', 'is not', null),
              eb.or([eb('status', '=', 'cancelled'), isActive(now)(eb)]),
            ])
          : state === 'all'
            ? eb.or([eb('status', '=', 'cancelled'), isActive(now)(eb)])
            : isActive(now)(eb),
    );
  if (range.from) q = q.where('starts_at', '>=', range.from);
  if (range.to) q = q.where('starts_at', '<', range.to);
  return q.orderBy('starts_at').limit(500).execute();
}

/** A bot's reservation by id; undefined when it is not that bot's. */
export async function findForBot(
  db: ReservationsDb,
  chatbotId: string,
  id: string,
): Promise<Reservation | undefined> {
  return db
    .selectFrom('reservations_v1')
    .selectAll()
    .where('chatbot_ref', '=', chatbotId)
    .where('reservation_id', '=', id)
    .executeTakeFirst();
}

/** Sets the paid and completed flags of a bot's reservation; undefined when it is not that bot's. */
export async function setFlags(
  db: ReservationsDb,
  chatbotId: string,
  id: string,
  flags: { is_paid?: boolean | undefined; is_completed?: boolean | undefined },
  now: Date,
): Promise<Reservation | undefined> {
  return db
    .updateTable('reservations_v1')
    .set({
      ...(flags.is_paid !== undefined ? { is_paid: flags.is_paid } : {}),
      ...(flags.is_completed !== undefined ? { is_completed: flags.is_completed } : {}),
      updated_at: now,
    })
    .where('chatbot_ref', '=', chatbotId)
    .where('reservation_id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes a bot's reservation (spec 001 §8: delete by reservation_id). @returns whether it existed. */
export async function deleteReservation(db: ReservationsDb, chatbotId: string, id: string): Promise<boolean> {
  const r = await db
    .deleteFrom('reservations_v1')
    .where('chatbot_ref', '=', chatbotId)
    .where('reservation_id', '=', id)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/**
 * Every calendar and booking of an owner's bots, for their data export (issue 26 §5), soonest
 * first.
 */
export async function ownerReservations(db: ReservationsDb, ownerId: string) {
  const calendars = await db
    .selectFrom('reservation_config as c')
    .innerJoin('chatbots as b', 'b.id', 'c.chatbot_id')
    .select(['c.chatbot_id', 'c.config', 'c.updated_at'])
    .where('b.user_id', '=', ownerId)
    .execute();
  const bookings = await db
    .selectFrom('reservations_v1 as r')
    .innerJoin('chatbots as b', 'b.id', 'r.chatbot_ref')
    .selectAll('r')
    .where('b.user_id', '=', ownerId)
    .orderBy('r.starts_at')
    .execute();
  return { calendars, bookings };
}
