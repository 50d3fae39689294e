/**
 * Who may use a reservation code (issue 24 §4). A code alone no longer opens a booking: codes are
 * six characters a follower can try at the chat's pace, so look-up, confirmation, change and
 * cancellation by code succeed only
 *
 * - for the follower who booked: same bot (codes are looked up within one bot), same channel and
 *   same chat id as stored on the reservation; or
 * - from any other chat or channel, when the follower also gives the phone or the e-mail stored on
 *   the booking ({@link sameContact}).
 *
 * Anything else is answered exactly as a code that does not exist (`not_found`), so the answer
 * tells nobody which codes exist. Failed look-ups are counted per follower and per bot by the
 * engine's limiter (`reservationCodeFollower`, `reservationCodeBot` in engine/rate-limits.ts: in
 * the database, shared by every Charla process); past either limit a
 * follower's look-ups are refused (`rate_limited`) until the window ends, even with a right code
 * and phone. The follower who booked is never counted nor refused in their own chat: nothing is
 * guessed there, and a flood of guesses against a bot cannot lock its customers out of their own
 * bookings. The owner's routes (routes.ts) use {@link OWNER}: the owner sees every booking.
 */
import type { LimitCheck } from '../../engine/rate-limits.ts';
import type { LimitsPort } from '../../engine/registry/index.ts';
import type { Reservation } from './queries.ts';

/** Digits of two phones compared ({@link samePhone}): the national number without its country prefix in most countries. */
export const PHONE_MATCH_DIGITS = 9;

/** Fewest digits a phone must have to prove anything. */
const PHONE_MIN_DIGITS = 6;

/** The chat id counted for followers with no id (a web visitor that sent none). */
const ANONYMOUS_SUBJECT = 'anonymous';

/** The owner (routes.ts, and the service's own calls): every booking of their bot, never counted. */
export const OWNER = { kind: 'owner' } as const;

/**
 * Who asks about a code: the owner, or a follower on a channel (`chatId` null for a follower with
 * no id, who can never be the booker) with the phone or e-mail they gave as proof, if any.
 */
export type Asker =
  | typeof OWNER
  | {
      kind: 'follower';
      channel: string;
      chatId: string | null;
      phone?: string | undefined;
      email?: string | undefined;
    };

/** The outcome of asking for a code. */
export type CodeAccess =
  | { ok: true; reservation: Reservation }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'rate_limited'; retryAfterMs: number };

/** A phone's digits, last {@link PHONE_MATCH_DIGITS} of them (`+34 600 12 34 56` → `600123456`); null with too few. */
export function phoneKey(phone: string | null | undefined): string | null {
  const digits = (phone ?? '').replace(/\D/g, '');
  return digits.length >= PHONE_MIN_DIGITS ? digits.slice(-PHONE_MATCH_DIGITS) : null;
}

/**
 * Whether two phones are the same number: their digits only (spaces, dots, dashes, brackets and
 * `+` dropped), the last {@link PHONE_MATCH_DIGITS} digits equal (so `+34 600 123 456`,
 * `0034600123456` and `600-12-34-56` match), each with at least 6 digits.
 */
export function samePhone(a: string | null | undefined, b: string | null | undefined): boolean {
  const x = phoneKey(a);
  return x !== null && x === phoneKey(b);
}

/** Whether two e-mails are the same address (trimmed, case-insensitive). */
export function sameEmail(a: string | null | undefined, b: string | null | undefined): boolean {
  const x = a?.trim().toLowerCase();
  return !!x && x === b?.trim().toLowerCase();
}

/** Whether the follower gave the phone or the e-mail stored on the booking. */
export function sameContact(r: Reservation, asker: Asker): boolean {
  if (asker.kind !== 'follower') return false;
  return samePhone(asker.phone, r.customer_contact) || sameEmail(asker.email, r.customer_email);
}

/** Whether the follower asking is the one who booked (same channel and chat; the bot is the code's). */
export function isBooker(r: Reservation, asker: Asker): boolean {
  return (
    asker.kind === 'follower' &&
    asker.chatId !== null &&
    r.channel === asker.channel &&
    r.chat_id === asker.chatId
  );
}

/**
 * Decides who may use a code, counting failed look-ups with the engine's limiter (the limits are
 * off, and nothing is counted, with `CHARLA_RATE_LIMITS=off`).
 */
export class CodeGuard {
  constructor(private readonly limits: LimitsPort) {}

  /**
   * The reservation `find` gives, if the asker may see it. `find` reads the code's reservation
   * (undefined when the code does not exist); `usable` says whether its status suits the caller
   * (look-up: active; confirm: not cancelled). Every refusal is `not_found`, or `rate_limited`
   * past a limit.
   */
  async access(
    chatbotId: string,
    asker: Asker,
    find: () => Promise<Reservation | undefined>,
    usable: (r: Reservation) => boolean,
  ): Promise<CodeAccess> {
    const r = await find();
    const found = r && usable(r) ? r : undefined;
    if (asker.kind === 'owner' || (r && isBooker(r, asker)))
      return found ? { ok: true, reservation: found } : { ok: false, reason: 'not_found' };
    // Counted as failed before it is checked, so concurrent guesses cannot slip past the limit.
    const checks: LimitCheck[] = [
      { limit: 'reservationCodeBot', key: chatbotId },
      {
        limit: 'reservationCodeFollower',
        key: `${chatbotId}:${asker.channel}:${asker.chatId ?? ANONYMOUS_SUBJECT}`,
      },
    ];
    const limited = await this.limits.hit(checks);
    const refund = async () => {
      for (const check of checks) await this.limits.refund(check);
    };
    if (!limited.allowed) {
      await refund(); // refused before looking: not a failure
      return { ok: false, reason: 'rate_limited', retryAfterMs: limited.retryAfterS * 1000 };
    }
    if (found && sameContact(found, asker)) {
      await refund();
      return { ok: true, reservation: found };
    }
    return { ok: false, reason: 'not_found' };
  }
}
