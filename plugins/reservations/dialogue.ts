/**
 * The offline booking dialogue (issue 12 §2): with no LLM configured, a follower still books,
 * changes and cancels through a small deterministic conversation that drives the same tools the
 * model would call (so calls are recorded with the turn and a replayed message books once).
 *
 *   follower: «Quiero reservar mesa para 4 el sábado»   → the free slots of that day, numbered
 *   follower: «2» (or «a las 14:00»)                     → the slot is held; the first missing detail is asked
 *   follower: «Ana García» / «600 123 456»               → … until nothing required is missing: confirmed, with its code
 *   follower: «cancela la reserva K7P2QX»                → cancelled
 *   (from another chat: «cancela K7P2QX, teléfono 600 123 456» → cancelled when the booking's phone matches)
 *
 * It understands dates («hoy», «mañana», weekday names, 28/11, 2026-11-28), times (14:00, «a las
 * 14», 2pm) and party sizes («para 4», «4 personas») in the bot languages' common words (parse.ts). The
 * follower's place in the dialogue is kept per chat (reservation_dialogues); anything it does not
 * understand mid-dialogue falls through to the offline responder, and the dialogue waits.
 *
 * A code reaches only the follower's own bookings, or one whose phone or e-mail is in the same
 * message (issue 24 §4, access.ts); anything else gets the same «not found», and past the failed
 * look-up limits the follower is told to wait or to contact the business.
 */
import { z } from 'zod';
import type { OfflineHandler, ToolRunner, TurnContext } from '../../engine/registry/index.ts';
import type { LangCode } from '../../engine/schemas.ts';
import { findDialogue, saveDialogue } from './follower-queries.ts';
import { MAIL_CHANNELS, VISITOR_MAIL_TEXTS } from './mail-texts.ts';
import { fold, parseDate, parseDetail, parsePartySize, parseProof, parseTime } from './parse.ts';
import type { ReservationsDb } from './queries.ts';
import { type Bookings, type FreeSlot, HOLD_MS, type MissingField } from './service.ts';
import { instantOf } from './slots.ts';
import { fillText, formatDate, formatWhen, partyText, type ReservationTexts, textsFor } from './texts.ts';
import { VisitorEmail } from './tools.ts';

/** Where a follower is in the dialogue. */
const State = z.object({
  /**
   * `email`: a web booking is confirmed and its optional e-mail was asked (issue 28 §2);
   * `comment`: a booking is confirmed and a comment was asked (issue 29, `allow_comments`).
   */
  step: z.enum(['slot', 'details', 'email', 'comment']),
  /** Ask the comment once the e-mail question is answered (issue 29). */
  commentNext: z.boolean().optional(),
  date: z.string().optional(),
  offered: z.array(z.string()).default([]),
  code: z.string().optional(),
  asking: z.enum(['name', 'phone', 'email', 'party_size']).optional(),
  partySize: z.number().int().optional(),
  /** Moving this reservation (by code) instead of booking a new one. */
  changing: z.string().optional(),
  /** The phone or e-mail given with the code being changed (the proof, from another chat). */
  proof: z.object({ phone: z.string().optional(), email: z.string().optional() }).optional(),
  /** The e-mail a web visitor gave as a required detail, with the consent line asked (issue 28 §2). */
  mailTo: z.string().optional(),
});
type State = z.infer<typeof State>;

const BOOK =
  /\b(reserv\w*|book\w*|mesa|table|cita|turno|appointment|prenot\w*|termin\w*|buch\w*|rendez)|брон\w*|बुक/u;
const CANCEL = /\b(cancel\w*|anul\w*|storn\w*|annul\w*|disdic\w*)|отмен\w*|रद्द/u;
const CHANGE =
  /\b(cambi\w*|change|modif\w*|mover|move|spost\w*|verschieb\w*|aender\w*|änder\w*)|перенес\w*|измен\w*|बदल/u;
const LOOKUP =
  /\b(consult\w*|ver|check|look|mi reserva|my booking|ma reservation|meine reservierung|la mia prenotazione)|моя бронь/u;
const STOP =
  /^(no|nada|olvidalo|olvidalo|dejalo|stop|salir|quit|never ?mind|laisse|lascia|vergiss|нет|хватит|रहने दो)\b/u;
/** Declining the optional e-mail (issue 28 §2), besides {@link STOP}. */
const SKIP = /^(no\b|non\b|nein\b|nope|skip|salt|omit|paso|passe|sin |senza|ohne|без|नहीं)/u;
/** Something that may be an e-mail address in a message. */
const EMAIL_IN = /[^\s@<>()]+@[^\s@<>()]+/;
/** A reservation code: 6 characters of the code alphabet, with at least one digit. */
const CODE = /\b(?=[A-Z2-9]*\d)[A-HJ-NP-Z2-9]{6}\b/;

/** A numbered list of free slots (at most 8). */
function slotList(t: ReservationTexts, lang: LangCode, date: string, slots: FreeSlot[]): string {
  const lines = slots.slice(0, 8).map((s, i) => `${i + 1}. ${s.start}–${s.end}`);
  return `${fillText(t.slotsIntro, { date: formatDate(lang, date) })}\n${lines.join('\n')}\n${t.pick}`;
}

/**
 * Issue 29: the offered slots as choices (buttons where the channel has them). A tap comes back
 * as the label, which the dialogue reads like a typed answer: the time, and the date («28/11»)
 * when the slots span several days; typed numbers still work.
 */
function slotChoices(slots: FreeSlot[], withDate: boolean): Array<{ id: string; label: string }> {
  return slots.slice(0, 8).map((s) => ({
    id: s.id,
    label: `${withDate ? `${s.date.slice(8, 10)}/${s.date.slice(5, 7)} ` : ''}${s.start}–${s.end}`,
  }));
}

const ASK: Record<MissingField, keyof ReservationTexts> = {
  name: 'askName',
  phone: 'askPhone',
  email: 'askEmail',
  party_size: 'askParty',
};

/** The tool result's shape the dialogue reads. */
interface ToolView {
  code?: string;
  status?: string;
  missing?: MissingField[];
  error?: string;
  alternatives?: FreeSlot[];
  max?: number;
  field?: 'phone' | 'email';
  date?: string;
  time?: string;
  party_size?: number | null;
  slot_id?: string;
  /** The sentence to tell the follower, in the bot's language (code refusals). */
  say?: string;
}

/** Builds the offline dialogue over the booking service. */
export function reservationDialogue(db: ReservationsDb, bookings: Bookings): OfflineHandler {
  return async (turn: TurnContext, tools: ToolRunner) => {
    if (!turn.bot.settings.enable_reservations || turn.inbound.follower.id === 'anonymous') return undefined;
    const key = { chatbotId: turn.bot.id, channel: turn.inbound.channel, chatId: turn.inbound.follower.id };
    const { lang, t } = textsFor(turn.bot.idioma);
    const mt = VISITOR_MAIL_TEXTS[lang];
    /** Issue 28 §2: a website visitor is asked for an optional e-mail (consent line included). */
    const web = MAIL_CHANNELS.has(key.channel);
    const ask = (field: MissingField) =>
      field === 'email' && web ? `${t.askEmail} ${mt.consent}` : t[ASK[field]];
    const text = turn.inbound.text;
    const folded = fold(text);
    const config = await bookings.config(turn.bot.id);
    const stored = State.safeParse(await findDialogue(db, key.chatbotId, key.channel, key.chatId));
    let state: State | null = stored.success ? stored.data : null;
    const save = (s: State | null) => saveDialogue(db, key, s, turn.now);
    const call = async (name: string, input: Record<string, unknown>): Promise<ToolView> => {
      const out = await tools.run(name, input);
      return (out.ok ? out.output : { error: out.error }) as ToolView;
    };
    const when = (v: ToolView) => {
      const startsAt = v.slot_id ? bookingStart(v.date!, v.time!, config.timezone) : null;
      return startsAt ? formatWhen(lang, startsAt, config.timezone) : `${v.date} ${v.time}`;
    };
    const today = await bookings.today(turn.bot.id);
    /** A code refused: not found (whether it exists or not), or too many wrong codes. */
    const refused = (v: ToolView, code: string) =>
      v.error === 'too_many_attempts'
        ? (v.say ?? fillText(t.tooManyTries, { minutes: 15, business: turn.bot.business_name }))
        : fillText(t.notFound, { code });

    // A code in the message: cancel, change or look up that reservation.
    const code = CODE.exec(text.toUpperCase())?.[0];
    if (code && (CANCEL.test(folded) || CHANGE.test(folded) || LOOKUP.test(folded) || BOOK.test(folded))) {
      const proof = parseProof(text, code);
      if (CANCEL.test(folded)) {
        await save(null);
        const v = await call('reservations_cancel', { code, ...proof });
        return { reply: v.error ? refused(v, code) : fillText(t.cancelled, { code }) };
      }
      const found = await call('reservations_lookup', { code, ...proof });
      if (found.error) return { reply: refused(found, code) };
      if (CHANGE.test(folded)) {
        const date = parseDate(text, today);
        state = {
          step: 'slot',
          offered: [],
          changing: code,
          ...(proof.phone || proof.email ? { proof } : {}),
        };
        if (!date) {
          await save(state);
          return { reply: fillText(t.askChange, { code }) };
        }
        return offerDay(date, state, parseTime(text));
      }
      return {
        reply: fillText(t.lookup, { code, when: when(found), party: partyText(t, found.party_size ?? null) }),
      };
    }

    // Issue 29: the answer to the comment question (skippable); a new request drops the question.
    if (state?.step === 'comment' && state.code) {
      await save(null);
      if (STOP.test(folded) || SKIP.test(folded)) return { reply: t.commentSkipped };
      if (!BOOK.test(folded) && !CANCEL.test(folded) && !CHANGE.test(folded)) {
        const v = await call('reservations_confirm', {
          code: state.code,
          comments: text.trim().slice(0, 500),
        });
        return { reply: v.error ? refused(v, state.code) : t.commentSaved };
      }
      state = null;
    }

    // Issue 28 §2: the answer to the optional e-mail question after a web booking.
    if (state?.step === 'email' && state.code) {
      const typed = EMAIL_IN.exec(text)?.[0];
      if (typed) {
        const email = VisitorEmail.safeParse(typed.replace(/[.,;:!?]+$/, ''));
        if (!email.success) return { reply: mt.mailInvalid };
        await save(null);
        const v = await call('reservations_email', { code: state.code, email: email.data });
        if (v.error) return { reply: refused(v, state.code) };
        return thenComment(fillText(mt.mailSaved, { email: email.data }), state.code, state.commentNext);
      }
      await save(null);
      if (STOP.test(folded) || SKIP.test(folded))
        return thenComment(mt.mailSkipped, state.code, state.commentNext);
      // Anything else: the question is dropped and the message goes on as any other.
      state = null;
    }

    if (state && STOP.test(folded) && state.asking === undefined) {
      await save(null);
      return { reply: t.abandoned };
    }

    if (!state) {
      if (!BOOK.test(folded) || CANCEL.test(folded)) return undefined;
      const partySize = parsePartySize(text);
      if (partySize && partySize > config.max_party_size)
        return { reply: fillText(t.tooMany, { max: config.max_party_size }) };
      state = { step: 'slot', offered: [], ...(partySize ? { partySize } : {}) };
      const date = parseDate(text, today);
      if (date) return offerDay(date, state, parseTime(text));
      // No day named: the first day with room, from today.
      const first = (await bookings.freeSlots(turn.bot.id, { from: today, days: 14, limit: 1 }))[0];
      if (!first) {
        await save(null);
        return { reply: fillText(t.noSlots, { date: formatDate(lang, today) }) };
      }
      return offerDay(first.date, state, parseTime(text));
    }

    if (state.step === 'slot') {
      const date = parseDate(text, today);
      const time = parseTime(text);
      const index = /^\s*(\d{1,2})\s*[.)]?\s*$/.exec(text);
      if (date && date !== state.date) return offerDay(date, state, time);
      let slotId: string | undefined;
      if (index) slotId = state.offered[Number(index[1]) - 1];
      if (!slotId && time && state.date) {
        const free = await bookings.freeSlots(turn.bot.id, { from: state.date, days: 1 });
        slotId = free.find((s) => s.start === time)?.id;
        if (!slotId) return offerDay(state.date, state, null);
      }
      if (!slotId) return undefined; // not an answer to the list: the offline responder answers
      return take(slotId, state);
    }

    // step 'details': the answer to the question asked.
    if (state.step === 'details' && state.code && state.asking) {
      const value = parseDetail(state.asking, text);
      if (value === null) {
        if (state.asking === 'phone') return { reply: t.badPhone };
        if (state.asking === 'email') return { reply: t.badEmail };
        return { reply: ask(state.asking) };
      }
      const field = { name: 'customer_name', phone: 'phone', email: 'email', party_size: 'party_size' }[
        state.asking
      ];
      const next = state.asking === 'email' && web ? { ...state, mailTo: String(value) } : state;
      return afterBooking(await call('reservations_confirm', { code: state.code, [field]: value }), next);
    }
    return undefined;

    /** Lists a day's free slots (or takes the one at `time` when it is free). */
    async function offerDay(date: string, s: State, time: string | null) {
      const free = await bookings.freeSlots(turn.bot.id, { from: date, days: 1 });
      if (time) {
        const hit = free.find((f) => f.start === time);
        if (hit) return take(hit.id, s);
      }
      if (free.length === 0) {
        await save({ ...s, step: 'slot', date, offered: [] });
        return { reply: fillText(t.noSlots, { date: formatDate(lang, date) }) };
      }
      await save({ ...s, step: 'slot', date, offered: free.slice(0, 8).map((f) => f.id) });
      return { reply: slotList(t, lang, date, free), choices: slotChoices(free, false) };
    }

    /** Holds (or moves to) a slot and goes on with what is missing. */
    async function take(slotId: string, s: State) {
      if (s.changing) {
        const v = await call('reservations_change', { code: s.changing, slot_id: slotId, ...s.proof });
        if (v.error === 'full' || v.error === 'unknown_slot') return offerAlternatives(v, s);
        await save(null);
        if (v.error) return { reply: refused(v, s.changing) };
        return {
          reply: fillText(t.changed, {
            code: s.changing,
            when: when(v),
            party: partyText(t, v.party_size ?? null),
          }),
        };
      }
      const v = await call('reservations_hold', {
        slot_id: slotId,
        ...(s.partySize ? { party_size: s.partySize } : {}),
      });
      if (v.error === 'full' || v.error === 'unknown_slot') return offerAlternatives(v, s);
      if (v.error === 'too_many') {
        await save(null);
        return { reply: fillText(t.tooMany, { max: v.max ?? config.max_party_size }) };
      }
      const reply = await afterBooking(v, s);
      if (v.status === 'hold' && v.missing?.length)
        reply.reply = `${fillText(t.held, { when: when(v), minutes: HOLD_MS / 60_000 })}\n${reply.reply}`;
      return reply;
    }

    async function offerAlternatives(v: ToolView, s: State) {
      const alternatives = v.alternatives ?? [];
      await save({
        ...s,
        step: 'slot',
        offered: alternatives.map((a) => a.id),
        ...(alternatives[0] ? { date: alternatives[0].date } : {}),
      });
      if (alternatives.length === 0)
        return { reply: `${t.full} ${fillText(t.noSlots, { date: formatDate(lang, s.date ?? today) })}` };
      const lines = alternatives.map((a, i) => `${i + 1}. ${formatDate(lang, a.date)} ${a.start}–${a.end}`);
      return { reply: `${t.full}\n${lines.join('\n')}\n${t.pick}`, choices: slotChoices(alternatives, true) };
    }

    /**
     * `reply`, then the comment question when the calendar allows comments (issue 29); the
     * dialogue waits for it (`comment`), or ends.
     */
    async function thenComment(reply: string, code: string, ask = true): Promise<{ reply: string }> {
      if (!ask || !config.allow_comments) {
        await save(null);
        return { reply };
      }
      await save({ step: 'comment', offered: [], code });
      return { reply: `${reply}\n\n${t.askComments}` };
    }

    /** After a hold or a confirm: the next question, or the confirmation. */
    async function afterBooking(v: ToolView, s: State): Promise<{ reply: string }> {
      if (v.error === 'invalid') return { reply: v.field === 'email' ? t.badEmail : t.badPhone };
      if (v.error === 'too_many')
        return { reply: fillText(t.tooMany, { max: v.max ?? config.max_party_size }) };
      if (v.error === 'full') return offerAlternatives(v, { ...s, step: 'slot' });
      if (v.error || !v.code) {
        await save(null);
        return { reply: fillText(t.notFound, { code: s.code ?? '' }) };
      }
      const missing = v.missing ?? [];
      if (v.status === 'confirmed' && missing.length === 0) {
        await save(null);
        const confirmed = fillText(t.confirmed, {
          business: turn.bot.business_name,
          when: when(v),
          party: partyText(t, v.party_size ?? null),
          code: v.code,
        });
        if (s.changing) return { reply: confirmed };
        if (!web) return thenComment(confirmed, v.code);
        // Issue 28 §2: the e-mail given as a detail (consent asked with it), or the optional question.
        const given = VisitorEmail.safeParse(s.mailTo ?? '');
        if (given.success) {
          const mailed = await call('reservations_email', { code: v.code, email: given.data });
          if (!mailed.error)
            return thenComment(`${confirmed}\n${fillText(mt.mailSaved, { email: given.data })}`, v.code);
          return thenComment(confirmed, v.code);
        }
        await save({
          step: 'email',
          offered: [],
          code: v.code,
          ...(config.allow_comments ? { commentNext: true } : {}),
        });
        return { reply: `${confirmed}\n\n${mt.askMail}` };
      }
      const next = missing[0]!;
      await save({
        step: 'details',
        offered: [],
        code: v.code,
        asking: next,
        ...(s.partySize ? { partySize: s.partySize } : {}),
        ...(s.mailTo ? { mailTo: s.mailTo } : {}),
      });
      return { reply: ask(next) };
    }
  };
}

/** The instant of a reservation's local date and time (for wording it). */
function bookingStart(date: string, time: string, timezone: string): Date | null {
  return instantOf(date, time, timezone);
}
