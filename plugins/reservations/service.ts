/**
 * Booking (issue 12 §7): free slots, holds, confirmation, look-up, change and cancellation, shared
 * by the LLM's tools (tools.ts), the offline dialogue (dialogue.ts) and the owner's routes
 * (routes.ts). Every outcome is a value (`ok` or a `reason`), never a throw for a follower's
 * mistake, so each caller says it in its own way (JSON for the model, a sentence offline, an HTTP
 * status for the owner). Every step by code says who asks ({@link Asker}): a follower reaches only
 * the bookings they made in that chat, or those whose phone or e-mail they give (issue 24 §4,
 * access.ts).
 */
import type { PluginContext } from '../../engine/registry/index.ts';
import { type Asker, CodeGuard, OWNER } from './access.ts';
import { calendarName, defaultConfig, type ReservationConfig } from './config.ts';
import { byOf, emitBooking } from './events.ts';
import {
  activeBetween,
  findByCode,
  findConfig,
  insertOnFreePlace,
  moveToFreePlace,
  type Reservation,
  type ReservationDetails,
  type ReservationsDb,
  updateReservation,
} from './queries.ts';
import { scheduleReminders } from './reminders.ts';
import { addDays, findSlot, localDate, type Slot, upcomingSlots } from './slots.ts';

/**
 * How long a calendar read from the database is reused, ms. The process that saves a calendar
 * forgets it at once; another process sharing PostgreSQL sees the change within this time.
 */
export const CONFIG_TTL_MS = 2000;

/** How long a hold keeps its place while the follower gives their details, ms (issue 12: holds expire). */
export const HOLD_MS = 10 * 60_000;

/** A slot with the places still free. */
export interface FreeSlot {
  id: string;
  date: string;
  start: string;
  end: string;
  /** Places left (1 to max_simultaneous). */
  free: number;
}

/** Details the calendar requires that a reservation still lacks. */
export type MissingField = 'name' | 'phone' | 'email' | 'party_size';

/** Who booked: the follower's channel and chat id. */
export interface Follower {
  channel: string;
  chatId: string;
}

/** Why a booking step did not happen. */
export type BookingRefusal =
  | { ok: false; reason: 'unknown_slot'; alternatives: FreeSlot[] }
  | { ok: false; reason: 'full'; alternatives: FreeSlot[] }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'rate_limited'; retryAfterMs: number }
  | { ok: false; reason: 'too_many'; max: number }
  | { ok: false; reason: 'missing'; missing: MissingField[]; reservation: Reservation }
  | { ok: false; reason: 'invalid'; field: 'phone' | 'email' };

/** A phone: 6 to 15 digits, with spaces, dots, dashes, brackets and a leading + allowed. */
export const PHONE = /^\+?[\d\s().-]{6,24}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The booking service of one plugin instance. */
export class Bookings {
  /** Who may use a code, and the failed look-up counters (access.ts). */
  private readonly guard: CodeGuard;

  /** Failed-code look-ups are counted by the engine's shared limiter (`ctx.limits`). */
  constructor(
    private readonly db: ReservationsDb,
    private readonly ctx: Pick<PluginContext, 'jobs' | 'now' | 'log' | 'limits'> &
      Partial<Pick<PluginContext, 'events'>>,
  ) {
    this.guard = new CodeGuard(ctx.limits);
  }

  /** Calendars read in the last {@link CONFIG_TTL_MS}, by bot (a turn reads one several times). */
  private readonly configs = new Map<string, { at: number; config: Promise<ReservationConfig> }>();

  /** The bot's calendar (the defaults when never saved); read at most every 2 s per bot. */
  async config(chatbotId: string): Promise<ReservationConfig> {
    const known = this.configs.get(chatbotId);
    if (known && Date.now() - known.at < CONFIG_TTL_MS) return known.config;
    const config = findConfig(this.db, chatbotId).then((c) => c ?? defaultConfig());
    if (this.configs.size > 10_000) this.configs.clear();
    this.configs.set(chatbotId, { at: Date.now(), config });
    config.catch(() => this.configs.delete(chatbotId));
    return config;
  }

  /** Forgets a bot's cached calendar (after the owner saves it). */
  forget(chatbotId: string): void {
    this.configs.delete(chatbotId);
  }

  /** The calendar's name (spec 001 §5). */
  async name(chatbotId: string, businessName: string): Promise<string> {
    return calendarName(await this.config(chatbotId), businessName);
  }

  /** Today's local date in the calendar's time zone. */
  async today(chatbotId: string): Promise<string> {
    return localDate(this.ctx.now(), (await this.config(chatbotId)).timezone);
  }

  /**
   * Free slots from a local date for some days, with the places left in each.
   * @param from local `YYYY-MM-DD` (default today); `days` 1 to 31 (default 7); `limit` slots at most.
   */
  async freeSlots(
    chatbotId: string,
    options: { from?: string | undefined; days?: number | undefined; limit?: number | undefined } = {},
  ): Promise<FreeSlot[]> {
    const config = await this.config(chatbotId);
    const now = this.ctx.now();
    const from = options.from ?? localDate(now, config.timezone);
    const slots = upcomingSlots(config, from, Math.min(options.days ?? 7, 31), now);
    if (slots.length === 0) return [];
    const active = await activeBetween(
      this.db,
      chatbotId,
      slots[0]!.startsAt,
      slots[slots.length - 1]!.endsAt,
      now,
    );
    const out: FreeSlot[] = [];
    for (const s of slots) {
      const used = active.filter(
        (a) => new Date(a.starts_at) < s.endsAt && new Date(a.ends_at) > s.startsAt,
      ).length;
      const free = config.max_simultaneous - used;
      if (free > 0) out.push({ id: s.id, date: s.date, start: s.start, end: s.end, free });
      if (options.limit && out.length >= options.limit) break;
    }
    return out;
  }

  /** Up to `n` free slots from the slot's date on (what to offer when one is full or unknown). */
  private async alternatives(chatbotId: string, near: Slot | null, n = 6): Promise<FreeSlot[]> {
    const from = near ? near.date : undefined;
    const list = await this.freeSlots(chatbotId, { from, days: 14, limit: n + 1 });
    return list.filter((s) => s.id !== near?.id).slice(0, n);
  }

  /** The details a reservation still needs under the calendar's rules. */
  missing(
    config: ReservationConfig,
    r: Pick<Reservation, 'customer_name' | 'customer_contact' | 'customer_email' | 'party_size'>,
  ): MissingField[] {
    const out: MissingField[] = [];
    if (config.require_name && !r.customer_name) out.push('name');
    if (config.require_phone && !r.customer_contact) out.push('phone');
    if (config.require_email && !r.customer_email) out.push('email');
    if (config.require_group_size && !r.party_size) out.push('party_size');
    return out;
  }

  /** Checks the details' shapes and the party size against the calendar. */
  private check(config: ReservationConfig, d: ReservationDetails): BookingRefusal | null {
    if (d.partySize && d.partySize > config.max_party_size)
      return { ok: false, reason: 'too_many', max: config.max_party_size };
    if (d.customerContact && !PHONE.test(d.customerContact.trim()))
      return { ok: false, reason: 'invalid', field: 'phone' };
    if (d.customerEmail && !EMAIL.test(d.customerEmail.trim()))
      return { ok: false, reason: 'invalid', field: 'email' };
    return null;
  }

  private service(config: ReservationConfig, slot: Slot): string {
    return `${config.reservation_type}${slot.block ? ` ${slot.block}` : ''} ${slot.date} ${slot.start}-${slot.end}`;
  }

  /**
   * Holds a slot for a follower for {@link HOLD_MS}; with every required detail given, confirms at
   * once. A replayed call (same idempotency key) returns the same reservation.
   */
  async hold(
    chatbotId: string,
    input: {
      slotId: string;
      details: ReservationDetails;
      follower: Follower | null;
      idempotencyKey: string | null;
    },
  ): Promise<{ ok: true; reservation: Reservation; missing: MissingField[] } | BookingRefusal> {
    const config = await this.config(chatbotId);
    const now = this.ctx.now();
    const slot = findSlot(config, input.slotId);
    if (!slot || slot.startsAt <= now)
      return { ok: false, reason: 'unknown_slot', alternatives: await this.alternatives(chatbotId, slot) };
    const bad = this.check(config, input.details);
    if (bad) return bad;
    const placed = await insertOnFreePlace(
      this.db,
      {
        chatbotId,
        slot,
        service: this.service(config, slot),
        status: 'hold',
        holdExpiresAt: new Date(now.getTime() + HOLD_MS),
        source: input.follower ? 'chat' : 'owner',
        channel: input.follower?.channel ?? null,
        chatId: input.follower?.chatId ?? null,
        idempotencyKey: input.idempotencyKey,
        customerName: input.details.customerName ?? null,
        customerContact: input.details.customerContact?.trim() ?? null,
        customerEmail: input.details.customerEmail?.trim() ?? null,
        partySize: input.details.partySize ?? null,
        reason: input.details.reason ?? null,
        now,
      },
      config.max_simultaneous,
    );
    if (placed === 'full')
      return { ok: false, reason: 'full', alternatives: await this.alternatives(chatbotId, slot) };
    if (placed.status === 'confirmed') return { ok: true, reservation: placed, missing: [] };
    const missing = this.missing(config, placed);
    if (missing.length === 0)
      return this.confirm(chatbotId, { code: placed.reservation_code, details: {} }, OWNER);
    return { ok: true, reservation: placed, missing };
  }

  /**
   * Adds details to a held reservation and confirms it once nothing required is missing; the
   * reminders are queued then. A hold that expired meanwhile is placed again if its slot has room.
   * Only the asker who may use the code ({@link Bookings.access}) reaches it.
   */
  async confirm(
    chatbotId: string,
    input: { code: string; details: ReservationDetails },
    asker: Asker,
  ): Promise<{ ok: true; reservation: Reservation; missing: [] } | BookingRefusal> {
    const config = await this.config(chatbotId);
    const access = await this.access(chatbotId, input.code, asker, (x) => x.status !== 'cancelled');
    if (!access.ok) return access;
    const r = access.reservation;
    const now = this.ctx.now();
    const bad = this.check(config, input.details);
    if (bad) return bad;
    if (r.status === 'confirmed') {
      const updated = await updateReservation(this.db, r.reservation_id, { details: input.details }, now);
      return { ok: true, reservation: updated ?? r, missing: [] };
    }
    const merged = { ...r, ...withColumns(input.details) };
    const missing = this.missing(config, merged);
    if (missing.length > 0) {
      const updated = await updateReservation(this.db, r.reservation_id, { details: input.details }, now);
      return { ok: false, reason: 'missing', missing, reservation: updated ?? r };
    }
    let confirmed: Reservation | undefined;
    if (r.status === 'expired' || (r.hold_expires_at && new Date(r.hold_expires_at) <= now)) {
      // The hold ran out: take the slot again, confirmed, if it still has room.
      const slot = findSlot(config, r.slot_id);
      if (!slot || slot.startsAt <= now)
        return { ok: false, reason: 'full', alternatives: await this.alternatives(chatbotId, slot) };
      const again = await moveToFreePlace(
        this.db,
        r,
        slot,
        r.service,
        config.max_simultaneous,
        now,
        'confirmed',
      );
      if (again === 'full')
        return { ok: false, reason: 'full', alternatives: await this.alternatives(chatbotId, slot) };
      confirmed = await updateReservation(this.db, again.reservation_id, { details: input.details }, now);
    } else {
      confirmed = await updateReservation(
        this.db,
        r.reservation_id,
        { status: 'confirmed', holdExpiresAt: null, details: input.details },
        now,
      );
    }
    if (!confirmed) return { ok: false, reason: 'not_found' };
    await this.remind(confirmed, config);
    const by = confirmed.source === 'chat' ? 'follower' : 'owner';
    await emitBooking(this.ctx, 'created', confirmed, by, config.timezone);
    return { ok: true, reservation: confirmed, missing: [] };
  }

  /** Queues a confirmed reservation's reminders; a queue that is not running is logged, not fatal. */
  private async remind(r: Reservation, config: ReservationConfig): Promise<void> {
    try {
      await scheduleReminders(this.ctx, r, config);
    } catch (err) {
      this.ctx.log.error(
        { err, reservationId: r.reservation_id },
        'could not queue the reservation’s reminders',
      );
    }
  }

  /**
   * The bot's reservation with a code, if the asker may use it (access.ts: the follower who booked,
   * in the chat they booked from; anyone giving the booking's phone or e-mail; the owner) and
   * `usable` accepts its status. A code that does not exist and one the asker may not use get the
   * same `not_found`; past the failed look-up limits, `rate_limited`.
   */
  access(
    chatbotId: string,
    code: string,
    asker: Asker,
    usable: (r: Reservation) => boolean,
  ): ReturnType<CodeGuard['access']> {
    return this.guard.access(chatbotId, asker, () => findByCode(this.db, chatbotId, code), usable);
  }

  /** An active (held or confirmed) reservation by code, if the asker may see it ({@link Bookings.access}). */
  lookup(chatbotId: string, code: string, asker: Asker): ReturnType<CodeGuard['access']> {
    return this.access(chatbotId, code, asker, isActive);
  }

  /** Moves a reservation the asker may use to another free slot; its reminders follow the new start. */
  async change(
    chatbotId: string,
    input: { code: string; slotId: string },
    asker: Asker,
  ): Promise<{ ok: true; reservation: Reservation } | BookingRefusal> {
    const config = await this.config(chatbotId);
    const found = await this.lookup(chatbotId, input.code, asker);
    if (!found.ok) return found;
    const r = found.reservation;
    const now = this.ctx.now();
    const slot = findSlot(config, input.slotId);
    if (!slot || slot.startsAt <= now)
      return { ok: false, reason: 'unknown_slot', alternatives: await this.alternatives(chatbotId, slot) };
    const moved = await moveToFreePlace(
      this.db,
      r,
      slot,
      this.service(config, slot),
      config.max_simultaneous,
      now,
      undefined,
      byOf(asker),
    );
    if (moved === 'full')
      return { ok: false, reason: 'full', alternatives: await this.alternatives(chatbotId, slot) };
    if (moved.status === 'confirmed') await this.remind(moved, config);
    if (moved.status === 'confirmed')
      await emitBooking(this.ctx, 'changed', moved, byOf(asker), config.timezone);
    return { ok: true, reservation: moved };
  }

  /** Cancels a booking the asker may use: its place is free at once, no reminder; kept with who and when. */
  async cancel(
    chatbotId: string,
    code: string,
    asker: Asker,
  ): Promise<{ ok: true; reservation: Reservation } | BookingRefusal> {
    const found = await this.lookup(chatbotId, code, asker);
    if (!found.ok) return found;
    const cancelled = await updateReservation(
      this.db,
      found.reservation.reservation_id,
      { status: 'cancelled', cancelledBy: byOf(asker) },
      this.ctx.now(),
    );
    if (cancelled && found.reservation.status === 'confirmed') {
      const { timezone } = await this.config(chatbotId);
      await emitBooking(this.ctx, 'cancelled', cancelled, byOf(asker), timezone);
    }
    return cancelled ? { ok: true, reservation: cancelled } : { ok: false, reason: 'not_found' };
  }

  /** The local date `days` after today in the calendar's zone. */
  async dateIn(chatbotId: string, days: number): Promise<string> {
    return addDays(await this.today(chatbotId), days);
  }
}

/** Held or confirmed (what a follower can look up, change or cancel). */
function isActive(r: Reservation): boolean {
  return r.status === 'confirmed' || r.status === 'hold';
}

/** Details as the columns they fill (for checking what is missing before storing). */
function withColumns(d: ReservationDetails) {
  return {
    ...(d.customerName ? { customer_name: d.customerName } : {}),
    ...(d.customerContact ? { customer_contact: d.customerContact } : {}),
    ...(d.customerEmail ? { customer_email: d.customerEmail } : {}),
    ...(d.partySize ? { party_size: d.partySize } : {}),
  };
}
