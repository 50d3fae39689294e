/**
 * The reservations owner routes (issue 12 §10; spec 001 §8: reservation_config select and upsert by
 * chatbot_id; reservations_v1 select, update is_paid, delete by reservation_id), all scoped to the
 * session's owner and one of their bots (another owner's bot answers 404):
 *
 * - `GET  /api/reservations/:chatbotId/config`: the calendar (the defaults until saved);
 * - `PUT  /api/reservations/:chatbotId/config`: saves it (the wizard's "Guardar") and turns
 *   reservations on for the bot (issue 29: one save);
 * - `GET  /api/reservations/:chatbotId?period=&state=&from=&to=`: the viewer's list and calendar
 *   (active, changed, cancelled or all, each with who cancelled or moved it and when: issue 27 §6);
 * - `GET  /api/reservations/:chatbotId/slots?date=`: a day's free slots (adding by hand);
 * - `POST /api/reservations/:chatbotId`: a reservation added by the owner (confirmed at once);
 * - `PATCH /api/reservations/:chatbotId/:reservationId`: "Reserva abonada" and completed flags;
 * - `POST /api/reservations/:chatbotId/:reservationId/cancel`: the owner cancels (kept, listed);
 * - `DELETE /api/reservations/:chatbotId/:reservationId`: deletes it (its place is free at once).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../engine/errors.ts';
import type { PluginContext } from '../../engine/registry/index.ts';
import { BotParams, ownedBotOf } from '../../engine/registry/owner-routes.ts';
import { OWNER } from './access.ts';
import {
  AddBody,
  ConfigAnswer,
  FlagsBody,
  ListAnswer,
  PERIODS,
  type ReservationRow,
  ReservationsErrorBody,
  SlotsAnswer,
  VIEWER_STATES,
} from './api.ts';
import { queueCancelNotice } from './cancel-notice.ts';
import { calendarName, defaultConfig, ReservationConfig } from './config.ts';
import { deleteReservation, findForBot, listForOwner, setFlags } from './owner-queries.ts';
import { findConfig, type Reservation, type ReservationsDb, saveConfig } from './queries.ts';
import type { Bookings } from './service.ts';
import { addDays, instantOf, localDate, localTime } from './slots.ts';

const RowParams = BotParams.extend({ reservationId: z.string().min(1).max(100) });

const LocalDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** The list's query: a period, or a `from`–`to` range of local dates (both inclusive, at most 62 days). */
const ListQuery = z
  .object({
    period: z.enum(PERIODS).default('upcoming'),
    state: z.enum(VIEWER_STATES).default('active'),
    from: LocalDate.optional(),
    to: LocalDate.optional(),
  })
  .refine((q) => (q.from === undefined) === (q.to === undefined), { message: 'from and to go together' })
  .refine(
    (q) =>
      !q.from ||
      !q.to ||
      (q.from <= q.to && Date.parse(`${q.to}T00:00Z`) - Date.parse(`${q.from}T00:00Z`) <= 62 * 86_400_000),
    { message: 'from must be before to, at most 62 days apart' },
  );

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The first instant of a local date (midnight, or the first hour that exists when a DST change skips it). */
function startOfDay(date: string, timezone: string): Date {
  return instantOf(date, '00:00', timezone) ?? instantOf(date, '01:00', timezone)!;
}

/** Issue 28 §2: whether the visitor gets this booking's mails (the migration's columns, read from the row). */
function mailState(r: Reservation): Pick<ReservationRow, 'mail'> {
  const m = r as Reservation & { email_consent_at?: Date | null; email_unsubscribed_at?: Date | null };
  if (!r.customer_email || !m.email_consent_at) return {};
  return { mail: m.email_unsubscribed_at ? 'off' : 'on' };
}

function row(r: Reservation, timezone: string): ReservationRow {
  return {
    id: r.reservation_id,
    code: r.reservation_code,
    status: r.status,
    date: r.reserved_date,
    start: r.reserved_time,
    end: localTime(new Date(r.ends_at), timezone),
    startsAt: new Date(r.starts_at).toISOString(),
    customer_name: r.customer_name,
    customer_contact: r.customer_contact,
    customer_email: r.customer_email,
    ...mailState(r),
    party_size: r.party_size,
    reason: r.reason,
    service: r.service,
    is_paid: r.is_paid,
    is_completed: r.is_completed,
    source: r.source,
    channel: r.channel,
    cancelledAt: iso(r.cancelled_at),
    cancelledBy: r.cancelled_by,
    changedAt: iso(r.changed_at),
    changedBy: r.changed_by,
    changedFrom: iso(r.changed_from),
  };
}

/** The routes (mounted at the root: `prefix: ''`). */
export function reservationRoutes(
  ctx: PluginContext,
  db: ReservationsDb,
  bookings: Bookings,
): FastifyPluginAsyncZod {
  /** The owner's bot, or 404 with the spec's bot-not-found text (the registry's bot port). */
  const ownedBot = ownedBotOf(ctx);
  const probe = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    json?: Record<string, unknown>,
  ) => ({
    owner: {
      probe: (a: { botId: string }) => ({
        method,
        url: `/api/reservations/${a.botId}${path}`,
        ...(json ? { json } : {}),
      }),
    },
  });

  return async (app) => {
    app.get(
      '/api/reservations/:chatbotId/config',
      {
        config: probe('GET', '/config'),
        schema: {
          summary: 'A bot’s reservation calendar',
          description:
            'Spec 001 §3 reservation_config, §9 defaults (Mon–Fri 09:00–18:00, Sat–Sun 10:00–16:00 off, Europe/Madrid, ' +
            'normal slots, 1 at a time). `saved` is false until the owner saves once. 404 for a bot that is not the owner’s.',
          tags: ['reservations'],
          params: BotParams,
          response: { 200: ConfigAnswer, 404: ReservationsErrorBody },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        const stored = await findConfig(db, bot.id);
        const config = stored ?? (await bookings.config(bot.id));
        return { config, saved: stored !== null, calendarName: calendarName(config, bot.business_name) };
      },
    );

    app.put(
      '/api/reservations/:chatbotId/config',
      {
        config: probe('PUT', '/config', defaultConfig()),
        schema: {
          summary: 'Saves a bot’s reservation calendar',
          description:
            'Spec 001 §5: max_simultaneous is 1, or 2 to 20 when allow_simultaneous; every weekday’s start before its end ' +
            '(and its break inside). 400 with the field for a bad config. The dashboard says "Configuración guardada" or ' +
            '"No se pudo guardar la configuración de reservas.".',
          tags: ['reservations'],
          params: BotParams,
          body: ReservationConfig,
          response: { 200: ConfigAnswer, 404: ReservationsErrorBody },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        await saveConfig(db, bot.id, req.body, ctx.now());
        // Issue 29: the wizard's save turns reservations on, no second "Guardar" needed.
        await ctx.db
          .updateTable('chatbots')
          .set({ enable_reservations: true })
          .where('id', '=', bot.id)
          .execute();
        ctx.bots.changed(bot.id);
        bookings.forget(bot.id);
        return { config: req.body, saved: true, calendarName: calendarName(req.body, bot.business_name) };
      },
    );

    app.get(
      '/api/reservations/:chatbotId',
      {
        config: probe('GET', ''),
        schema: {
          summary: 'A bot’s reservations (the viewer)',
          description:
            'Spec 001 §2, §9: confirmed reservations and current holds, soonest first, for a period in the calendar’s ' +
            'time zone: `today`, `week` (the last 7 days, today included), `past` (started before now), `all`; and ' +
            '`upcoming` (from today on; the viewer’s default, not in the spec). At most 500. Issue 27 §6: `state` ' +
            '`changed`, `cancelled` or `all` (active and cancelled) lists those too, each with who cancelled or moved ' +
            'it and when; `from` and `to` (local dates, inclusive, ≤ 62 days: the calendar) replace the period. 400 ' +
            'for a bad query.',
          tags: ['reservations'],
          params: BotParams,
          querystring: ListQuery,
          response: { 200: ListAnswer, 404: ReservationsErrorBody },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        const config = await bookings.config(bot.id);
        const now = ctx.now();
        const today = localDate(now, config.timezone);
        const tz = config.timezone;
        const range = req.query.from
          ? { from: startOfDay(req.query.from, tz), to: startOfDay(addDays(req.query.to!, 1), tz) }
          : req.query.period === 'today'
            ? { from: startOfDay(today, tz), to: startOfDay(addDays(today, 1), tz) }
            : req.query.period === 'week'
              ? { from: startOfDay(addDays(today, -6), tz), to: startOfDay(addDays(today, 1), tz) }
              : req.query.period === 'past'
                ? { to: now }
                : req.query.period === 'upcoming'
                  ? { from: startOfDay(today, tz) }
                  : {};
        const list = await listForOwner(db, bot.id, range, now, req.query.state);
        if (req.query.period === 'past' && !req.query.from) list.reverse();
        return { timezone: tz, today, reservations: list.map((r) => row(r, tz)) };
      },
    );

    app.get(
      '/api/reservations/:chatbotId/slots',
      {
        config: probe('GET', '/slots?date=2030-01-01'),
        schema: {
          summary: 'A day’s free slots (adding a reservation by hand)',
          description:
            'Issue 12 §10: the slots of a local date with their free places, generated from the calendar.',
          tags: ['reservations'],
          params: BotParams,
          querystring: z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
          response: { 200: SlotsAnswer, 404: ReservationsErrorBody },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        return { slots: await bookings.freeSlots(bot.id, { from: req.query.date, days: 1 }) };
      },
    );

    app.post(
      '/api/reservations/:chatbotId',
      {
        config: probe('POST', '', { slotId: '2030-01-01T10:00-11:00' }),
        schema: {
          summary: 'Adds a reservation by hand',
          description:
            'Issue 12 §10: the owner books a free slot (by id, from `/slots`) for a customer who called or came in; it is ' +
            'confirmed at once when the calendar’s required details are given. 409 `full` when the slot has no place ' +
            'left, 400 `unknown_slot`, `too_many`, `invalid` (phone or e-mail) or `missing` (with the fields).',
          tags: ['reservations'],
          params: BotParams,
          body: AddBody,
          response: {
            200: z.object({ reservation: z.custom<ReservationRow>() }),
            400: ReservationsErrorBody.extend({ missing: z.array(z.string()).optional() }),
            404: ReservationsErrorBody,
            409: ReservationsErrorBody,
          },
        },
      },
      async (req, reply) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        const config = await bookings.config(bot.id);
        const b = req.body;
        const details = {
          ...(b.customer_name ? { customerName: b.customer_name } : {}),
          ...(b.phone ? { customerContact: b.phone } : {}),
          ...(b.email ? { customerEmail: b.email } : {}),
          ...(b.party_size ? { partySize: b.party_size } : {}),
          ...(b.comments ? { reason: b.comments } : {}),
        };
        const missing = bookings.missing(config, {
          customer_name: details.customerName ?? null,
          customer_contact: details.customerContact ?? null,
          customer_email: details.customerEmail ?? null,
          party_size: details.partySize ?? null,
        });
        if (missing.length > 0)
          return reply.code(400).send({ error: 'Faltan datos obligatorios.', code: 'missing', missing });
        const result = await bookings.hold(bot.id, {
          slotId: b.slotId,
          details,
          follower: null,
          idempotencyKey: null,
        });
        if (!result.ok) {
          const status = result.reason === 'full' ? 409 : 400;
          return reply.code(status).send({ error: result.reason, code: result.reason });
        }
        return { reservation: row(result.reservation, config.timezone) };
      },
    );

    app.patch(
      '/api/reservations/:chatbotId/:reservationId',
      {
        config: probe('PATCH', '/00000000-0000-0000-0000-000000000000', { is_paid: true }),
        schema: {
          summary: 'Marks a reservation paid or completed',
          description:
            'Spec 001 §4, §8: the "Reserva abonada" checkbox sets is_paid; is_completed shows "CONFIRMADA Y FINALIZADA". ' +
            '404 when the reservation is not this bot’s. The dashboard says "Error al actualizar el estado de pago. Inténtalo de nuevo." on failure.',
          tags: ['reservations'],
          params: RowParams,
          body: FlagsBody,
          response: {
            200: z.object({ reservation: z.custom<ReservationRow>() }),
            404: ReservationsErrorBody,
          },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        const config = await bookings.config(bot.id);
        const updated = await setFlags(db, bot.id, req.params.reservationId, req.body, ctx.now());
        if (!updated) throw new AppError('NOT_FOUND', 'No existe esa reserva.');
        return { reservation: row(updated, config.timezone) };
      },
    );

    app.post(
      '/api/reservations/:chatbotId/:reservationId/cancel',
      {
        config: probe('POST', '/00000000-0000-0000-0000-000000000000/cancel'),
        schema: {
          summary: 'Cancels a reservation (the owner)',
          description:
            'Issue 27 §6: the owner cancels a held or confirmed reservation; its place is free at once, no reminder goes ' +
            'out, the follower is told on their channel (a durable job; the booking_changed template outside WhatsApp’s ' +
            '24-hour window), and it stays in the viewer under "cancelled" with "by you" and the time (the booking event says ' +
            '`by: owner`). 404 when it is not this bot’s or is no longer active.',
          tags: ['reservations'],
          params: RowParams,
          response: {
            200: z.object({ reservation: z.custom<ReservationRow>() }),
            404: ReservationsErrorBody,
          },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        const found = await findForBot(db, bot.id, req.params.reservationId);
        const done = found ? await bookings.cancel(bot.id, found.reservation_code, OWNER) : null;
        if (!done?.ok) throw new AppError('NOT_FOUND', 'No existe esa reserva.');
        // Issue 28 §1: the follower is told, on their channel (a template outside WhatsApp's window).
        // The cancellation stands whatever happens to the notice: a failure to queue it is logged.
        const { channel } = done.reservation;
        if (channel && ctx.capabilities(channel)?.push === true)
          await queueCancelNotice(ctx, done.reservation.reservation_id).catch((err: unknown) =>
            req.log.error({ err }, 'the cancellation notice could not be queued'),
          );
        const config = await bookings.config(bot.id);
        return { reservation: row(done.reservation, config.timezone) };
      },
    );

    app.delete(
      '/api/reservations/:chatbotId/:reservationId',
      {
        config: probe('DELETE', '/00000000-0000-0000-0000-000000000000'),
        schema: {
          summary: 'Deletes a reservation',
          description:
            'Spec 001 §4, §8: deletes by reservation_id after the viewer’s confirm prompt; the slot is free at once and ' +
            'its reminders go nowhere. 404 when it is not this bot’s. The dashboard says "Error al eliminar la reserva. Inténtalo de nuevo." on failure.',
          tags: ['reservations'],
          params: RowParams,
          response: { 200: z.object({ deleted: z.literal(true) }), 404: ReservationsErrorBody },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        if (!(await deleteReservation(db, bot.id, req.params.reservationId)))
          throw new AppError('NOT_FOUND', 'No existe esa reserva.');
        return { deleted: true as const };
      },
    );
  };
}
