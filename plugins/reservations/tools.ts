/**
 * The reservations tools the LLM calls (issue 12 §7; OpenAI function calling through the registry):
 * list free slots, hold one (confirming at once when every required detail is given), confirm,
 * look up, change and cancel by code. The model books by slot id (`YYYY-MM-DDTHH:mm-HH:mm` from
 * `reservations_free_slots`), never by a free-typed time: an id the calendar does not generate is
 * refused with the nearest free slots. Offered only to bots with `enable_reservations`.
 */
import { z } from 'zod';
import { ANONYMOUS_FOLLOWER } from '../../engine/conversation/engine.ts';
import { defineTool, type PluginTool, type ToolCall, type TurnBot } from '../../engine/registry/index.ts';
import type { Reservation } from './queries.ts';
import { type BookingRefusal, type Bookings, HOLD_MS } from './service.ts';

const enabled = (bot: TurnBot) => bot.enable_reservations;

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

/** A refusal as the model sees it: what happened and what to offer instead. */
export function refusalView(r: BookingRefusal) {
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
    case 'not_found':
      return { error: 'not_found', message: 'No active reservation with that code.' };
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

/** The tools, over one booking service. */
export function reservationTools(bookings: Bookings): PluginTool[] {
  return [
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
        if (!result.ok) return refusalView(result);
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
        const result = await bookings.confirm(call.turn.bot.id, {
          code: input.code,
          details: details(input),
        });
        return result.ok ? reservationView(result.reservation) : refusalView(result);
      },
    }),
    defineTool({
      name: 'reservations_lookup',
      description: 'Looks up a reservation by its code.',
      input: z.object({ code: z.string().trim().min(4).max(12) }),
      enabled,
      async run(input, call) {
        const r = await bookings.lookup(call.turn.bot.id, input.code);
        return r
          ? reservationView(r)
          : { error: 'not_found', message: 'No active reservation with that code.' };
      },
    }),
    defineTool({
      name: 'reservations_change',
      description: 'Moves a reservation (by code) to another free slot (by slot id).',
      input: z.object({ code: z.string().trim().min(4).max(12), slot_id: z.string() }),
      enabled,
      async run(input, call) {
        const result = await bookings.change(call.turn.bot.id, { code: input.code, slotId: input.slot_id });
        return result.ok ? reservationView(result.reservation) : refusalView(result);
      },
    }),
    defineTool({
      name: 'reservations_cancel',
      description: 'Cancels a reservation by its code.',
      input: z.object({ code: z.string().trim().min(4).max(12) }),
      enabled,
      async run(input, call) {
        const result = await bookings.cancel(call.turn.bot.id, input.code);
        return result.ok ? reservationView(result.reservation) : refusalView(result);
      },
    }),
  ];
}
