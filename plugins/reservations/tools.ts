/**
 * The reservations tools the LLM calls (issue 12 §7; OpenAI function calling through the registry):
 * list free slots, hold one (confirming at once when every required detail is given), confirm,
 * look up, change and cancel by code. The model books by slot id (`YYYY-MM-DDTHH:mm-HH:mm` from
 * `reservations_free_slots`), never by a free-typed time: an id the calendar does not generate is
 * refused with the nearest free slots. Offered only to bots with `enable_reservations`.
 *
 * Look-up, confirmation, change and cancellation by code reach only the follower's own bookings
 * (made in this chat on this channel) or a booking whose phone or e-mail the follower gives
 * (issue 24 §4, access.ts); every other code is `not_found`, and past the failed look-up limits
 * `too_many_attempts`. Both results carry `say`, the sentence to tell the follower in the bot's
 * language.
 */
import { z } from 'zod';
import { ANONYMOUS_FOLLOWER } from '../../engine/conversation/engine.ts';
import { defineTool, type PluginTool, type ToolCall, type TurnBot } from '../../engine/registry/index.ts';
import type { Asker } from './access.ts';
import { MAIL_CHANNELS } from './mail-texts.ts';
import { type MailContext, saveVisitorEmail } from './mails.ts';
import type { Reservation, ReservationsDb } from './queries.ts';
import { type BookingRefusal, type Bookings, HOLD_MS } from './service.ts';
import { fillText, textsFor } from './texts.ts';

const enabled = (bot: TurnBot) => bot.settings.enable_reservations;

const Details = {
  customer_name: z.string().trim().min(1).max(120).optional().describe('Name the reservation is under'),
  phone: z
    .string()
    .trim()
    .min(6)
    .max(24)
    .optional()
    .describe('Contact phone, digits as the follower wrote them'),
  email: z.string().trim().max(200).optional().describe('Contact e-mail'),
  party_size: z.number().int().min(1).max(500).optional().describe('Number of people'),
  comments: z.string().trim().max(500).optional().describe('Comments or the reason of the visit'),
};

type DetailsInput = {
  customer_name?: string | undefined;
  phone?: string | undefined;
  email?: string | undefined;
  party_size?: number | undefined;
  comments?: string | undefined;
};

function details(input: DetailsInput) {
  return {
    ...(input.customer_name !== undefined ? { customerName: input.customer_name } : {}),
    ...(input.phone !== undefined ? { customerContact: input.phone } : {}),
    ...(input.email !== undefined ? { customerEmail: input.email } : {}),
    ...(input.party_size !== undefined ? { partySize: input.party_size } : {}),
    ...(input.comments !== undefined ? { reason: input.comments } : {}),
  };
}

/** A reservation as the model sees it. */
export function reservationView(r: Reservation) {
  return {
    code: r.reservation_code,
    status: r.status,
    slot_id: r.slot_id,
    date: r.reserved_date,
    time: r.reserved_time,
    party_size: r.party_size,
    customer_name: r.customer_name,
  };
}

/** What the model is told when a code is not the follower's to use (the same whether it exists or not). */
const NOT_FOUND_MESSAGE =
  'No reservation with that code that this follower may see. If they booked from another chat or channel, ask for the phone or e-mail given with the booking and call again with it. Tell the follower what `say` says.';

/** What the model is told past the failed look-up limits. */
const RATE_LIMITED_MESSAGE =
  'Too many wrong reservation codes: do not try any code again now. Tell the follower what `say` says.';

/** A code refusal as the model sees it, with `say` in the bot's language. */
function codeRefusalView(
  r: { reason: 'not_found' } | { reason: 'rate_limited'; retryAfterMs: number },
  code: string,
  bot: TurnBot,
) {
  const { t } = textsFor(bot.idioma);
  if (r.reason === 'not_found')
    return { error: 'not_found', message: NOT_FOUND_MESSAGE, say: fillText(t.notFound, { code }) };
  return {
    error: 'too_many_attempts',
    message: RATE_LIMITED_MESSAGE,
    say: fillText(t.tooManyTries, {
      minutes: Math.ceil(r.retryAfterMs / 60_000),
      business: bot.business_name,
    }),
  };
}

/** A refusal as the model sees it: what happened and what to offer instead (`code`: the one asked about). */
export function refusalView(r: BookingRefusal, code: string, bot: TurnBot) {
  if (r.reason === 'not_found' || r.reason === 'rate_limited') return codeRefusalView(r, code, bot);
  switch (r.reason) {
    case 'unknown_slot':
      return {
        error: 'unknown_slot',
        message: 'That slot id is not in the calendar or is past. Offer these instead.',
        alternatives: r.alternatives,
      };
    case 'full':
      return {
        error: 'full',
        message: 'That slot has just been taken. Offer these instead.',
        alternatives: r.alternatives,
      };
    case 'too_many':
      return { error: 'too_many', message: `At most ${r.max} people per reservation.` };
    case 'missing':
      return {
        status: 'held',
        code: r.reservation.reservation_code,
        missing: r.missing,
        message: 'Ask the follower for the missing details, then call reservations_confirm.',
      };
    case 'invalid':
      return { error: 'invalid', field: r.field, message: `The ${r.field} does not look valid; ask again.` };
  }
}

function follower(call: ToolCall) {
  const id = call.turn.inbound.follower.id;
  return id === ANONYMOUS_FOLLOWER ? null : { channel: call.turn.inbound.channel, chatId: id };
}

/** The follower asking about a code, with the phone or e-mail they gave as proof. */
function asker(call: ToolCall, proof: { phone?: string | undefined; email?: string | undefined }): Asker {
  return {
    kind: 'follower',
    channel: call.turn.inbound.channel,
    chatId: follower(call)?.chatId ?? null,
    phone: proof.phone,
    email: proof.email,
  };
}

/** The proof a follower may give with a code when asking from another chat or channel. */
const Proof = {
  phone: z
    .string()
    .trim()
    .max(24)
    .optional()
    .describe(
      'The phone given with the booking; needed only when the follower asks from another chat or channel than the one they booked from',
    ),
  email: z
    .string()
    .trim()
    .max(200)
    .optional()
    .describe('Or the e-mail given with the booking (same use as phone)'),
};

/** A visitor's e-mail for their booking's mails (issue 28 §2): zod's e-mail check, 200 characters at most. */
export const VisitorEmail = z.string().trim().max(200).email();

/**
 * The tools, over one booking service; with `mail` (the plugin's context and store), also
 * `reservations_email`, which keeps a web visitor's e-mail with their consent (issue 28 §2).
 */
export function reservationTools(
  bookings: Bookings,
  mail?: { ctx: MailContext; db: ReservationsDb },
): PluginTool[] {
  return [
    ...(mail ? [emailTool(bookings, mail)] : []),
    defineTool({
      name: 'reservations_free_slots',
      description:
        'Lists the free reservation slots from a date (the business’s local date, YYYY-MM-DD; default today) for some days. Each slot has an id to book with.',
      input: z.object({
        from: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/)
          .optional()
          .describe('First local date, YYYY-MM-DD'),
        days: z.number().int().min(1).max(14).optional().describe('How many days (default 3)'),
      }),
      enabled,
      async run(input, call) {
        const chatbotId = call.turn.bot.id;
        const slots = await bookings.freeSlots(chatbotId, {
          from: input.from,
          days: input.days ?? 3,
          limit: 40,
        });
        return { today: await bookings.today(chatbotId), slots };
      },
    }),
    defineTool({
      name: 'reservations_hold',
      description: `Holds a free slot (by its id) for the follower for ${HOLD_MS / 60_000} minutes and returns the reservation code. Pass every detail the follower already gave: when nothing required is missing the reservation is confirmed at once; otherwise ask for the missing ones and call reservations_confirm.`,
      input: z.object({ slot_id: z.string().describe('A slot id from reservations_free_slots'), ...Details }),
      enabled,
      async run(input, call) {
        const result = await bookings.hold(call.turn.bot.id, {
          slotId: input.slot_id,
          details: details(input),
          follower: follower(call),
          idempotencyKey: call.idempotencyKey,
        });
        if (!result.ok) return refusalView(result, '', call.turn.bot);
        return { ...reservationView(result.reservation), missing: result.missing };
      },
    }),
    defineTool({
      name: 'reservations_confirm',
      description:
        'Adds the follower’s details to a held reservation and confirms it when nothing required is missing.',
      input: z.object({ code: z.string().trim().min(4).max(12), ...Details }),
      enabled,
      async run(input, call) {
        const result = await bookings.confirm(
          call.turn.bot.id,
          { code: input.code, details: details(input) },
          asker(call, input),
        );
        return result.ok
          ? reservationView(result.reservation)
          : refusalView(result, input.code, call.turn.bot);
      },
    }),
    defineTool({
      name: 'reservations_lookup',
      description:
        'Looks up one of the follower’s reservations by its code (from another chat or channel, with the booking’s phone or e-mail).',
      input: z.object({ code: z.string().trim().min(4).max(12), ...Proof }),
      enabled,
      async run(input, call) {
        const r = await bookings.lookup(call.turn.bot.id, input.code, asker(call, input));
        return r.ok ? reservationView(r.reservation) : codeRefusalView(r, input.code, call.turn.bot);
      },
    }),
    defineTool({
      name: 'reservations_change',
      description:
        'Moves one of the follower’s reservations (by code; from another chat or channel, with the booking’s phone or e-mail) to another free slot (by slot id).',
      input: z.object({ code: z.string().trim().min(4).max(12), slot_id: z.string(), ...Proof }),
      enabled,
      async run(input, call) {
        const result = await bookings.change(
          call.turn.bot.id,
          { code: input.code, slotId: input.slot_id },
          asker(call, input),
        );
        return result.ok
          ? reservationView(result.reservation)
          : refusalView(result, input.code, call.turn.bot);
      },
    }),
    defineTool({
      name: 'reservations_cancel',
      description:
        'Cancels one of the follower’s reservations by its code (from another chat or channel, with the booking’s phone or e-mail).',
      input: z.object({ code: z.string().trim().min(4).max(12), ...Proof }),
      enabled,
      async run(input, call) {
        const result = await bookings.cancel(call.turn.bot.id, input.code, asker(call, input));
        return result.ok
          ? reservationView(result.reservation)
          : refusalView(result, input.code, call.turn.bot);
      },
    }),
  ];
}

/**
 * `reservations_email` (issue 28 §2): on the website (channels `web` and `ialanding`), the
 * visitor's e-mail for one of their bookings, given with their consent, so the confirmation (with
 * an .ics), the reminders and the owner's late replies reach them by mail (mails.ts). Elsewhere
 * `not_web`; a code the visitor may not use is `not_found` as for the other tools.
 */
function emailTool(bookings: Bookings, mail: { ctx: MailContext; db: ReservationsDb }): PluginTool {
  return defineTool({
    name: 'reservations_email',
    description:
      'Only for website visitors: after a booking is confirmed, offer to send the confirmation and the reminders by e-mail (optional; say it is used only for this booking). When the visitor gives an address and agrees, call this with the booking code and the e-mail.',
    input: z.object({
      code: z.string().trim().min(4).max(12),
      email: VisitorEmail.describe('The visitor’s e-mail address'),
    }),
    enabled,
    async run(input, call) {
      if (!MAIL_CHANNELS.has(call.turn.inbound.channel) || !follower(call))
        return {
          error: 'not_web',
          message: 'E-mail is offered only to website visitors; nothing was stored.',
        };
      const r = await bookings.lookup(call.turn.bot.id, input.code, asker(call, {}));
      if (!r.ok) return codeRefusalView(r, input.code, call.turn.bot);
      await saveVisitorEmail(mail.ctx, mail.db, r.reservation, input.email);
      return { ...reservationView(r.reservation), email: input.email, mails: 'confirmation and reminders' };
    },
  });
}
