/**
 * Reservations the owner can follow (issue 27 §6) through a running Charla with no LLM: a follower
 * books, moves and cancels in the chat, and the owner's list keeps the booking under "changed" and
 * "cancelled" with who did it and when; the owner cancels one from the viewer's route ("by you");
 * the calendar's date range; ownership and malformed queries; and the booking event the
 * notifications plugin reads carries the calendar's time zone and the slot's length (for an .ics).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePlugin, type FeaturePlugin } from '../engine/registry/index.ts';
import { plugins } from '../plugins/index.ts';
import { defaultConfig, type ReservationConfig } from '../plugins/reservations/config.ts';
import { BOOKING_EVENT, type BookingEvent } from '../plugins/reservations/events.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';

/** A restaurant open every day 13:00–23:30 (break 16:30–20:00), hour slots, in Madrid. */
function restaurant(): ReservationConfig {
  const open = { enabled: true, start: '13:00', end: '23:30', break_start: '16:30', break_end: '20:00' };
  return {
    ...defaultConfig(),
    timezone: 'Europe/Madrid',
    working_hours: {
      monday: open,
      tuesday: open,
      wednesday: open,
      thursday: open,
      friday: open,
      saturday: open,
      sunday: open,
    },
    require_name: true,
    require_phone: true,
    require_group_size: true,
  };
}

describe.each(dialectsOf(import.meta.url))('reservations the owner can follow on %s', (kind) => {
  // Monday 2026-11-23 10:00 in Madrid.
  let clock = new Date('2026-11-23T09:00:00Z');
  let app: TestApp;
  let owner: { id: string; token: string };
  let botId: string;
  const events: BookingEvent[] = [];
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });

  /** Records the reservations plugin's booking events, as the notifications plugin would get them. */
  const probe: FeaturePlugin = definePlugin({
    id: 'booking-probe',
    setup(ctx) {
      ctx.events.on(BOOKING_EVENT, (payload) => {
        events.push(payload as BookingEvent);
      });
      return {};
    },
  });

  const chat = async (userMessage: string, messageId: string, visitor = 'ana') => {
    const res = await (await app.http()).inject({
      method: 'POST',
      url: `/api/chatbot-message/${botId}`,
      headers: auth(owner.token),
      payload: { userMessage, visitorId: visitor, messageId, channel: 'test' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { reply: string }).reply;
  };
  const get = async (query: string, token = owner.token) =>
    (await app.http()).inject({
      method: 'GET',
      url: `/api/reservations/${botId}?${query}`,
      headers: auth(token),
    });
  const list = async (query: string) => {
    const res = await get(query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { timezone: string; today: string; reservations: Array<Record<string, unknown>> };
  };
  const book = async (visitor: string, day: string, name: string) => {
    await chat(`Quiero reservar una mesa para 2 el ${day} a las 14:00`, `${visitor}-1`, visitor);
    await chat(name, `${visitor}-2`, visitor);
    const done = await chat('600 123 456', `${visitor}-3`, visitor);
    return /código es ([A-Z0-9]{6})/.exec(done)![1]!;
  };

  beforeAll(async () => {
    app = await createTestApp(kind, { llm: null, now: () => clock, plugins: [...plugins, probe] });
    owner = await app.owner('pepe-history@example.com');
    const saved = await (await app.http()).inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: auth(owner.token),
      payload: {
        business_name: 'El Pato Pepe',
        business_description: 'Restaurante familiar en Madrid.',
        idioma: 'Español',
        enable_reservations: true,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    botId = (saved.json() as { id: string }).id;
    const config = await (await app.http()).inject({
      method: 'PUT',
      url: `/api/reservations/${botId}/config`,
      headers: auth(owner.token),
      payload: restaurant(),
    });
    expect(config.statusCode, config.body).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('keeps a booking the follower moved and then cancelled in the chat, saying who and when', async () => {
    const code = await book('ana', 'sábado', 'Ana García');
    const created = events.find((e) => e.code === code && e.kind === 'created');
    expect(created).toMatchObject({
      by: 'follower',
      date: '2026-11-28',
      time: '14:00',
      timezone: 'Europe/Madrid',
      durationMinutes: 60,
    });

    clock = new Date('2026-11-23T14:40:00Z'); // 15:40 in Madrid
    const moved = await chat(`Cambia la reserva ${code} al sábado a las 21:00`, 'ana-4');
    expect(moved).toContain(`Reserva ${code} cambiada`);
    const changed = await list('period=all&state=changed');
    expect(changed.reservations).toMatchObject([
      {
        code,
        status: 'confirmed',
        start: '21:00',
        changedBy: 'follower',
        changedAt: '2026-11-23T14:40:00.000Z',
        changedFrom: '2026-11-28T13:00:00.000Z', // the 14:00 it had
        cancelledAt: null,
      },
    ]);
    expect(events.find((e) => e.code === code && e.kind === 'changed')).toMatchObject({
      by: 'follower',
      time: '21:00',
      timezone: 'Europe/Madrid',
      durationMinutes: 60,
    });

    clock = new Date('2026-11-24T08:05:00Z');
    expect(await chat(`Cancela la reserva ${code}`, 'ana-5')).toBe(`Tu reserva ${code} está cancelada.`);
    // Gone from the active list (spec 001 §2), kept under "cancelled" and "all", still under "changed".
    expect((await list('period=all')).reservations.some((r) => r.code === code)).toBe(false);
    const cancelled = await list('period=upcoming&state=cancelled');
    expect(cancelled.timezone).toBe('Europe/Madrid');
    expect(cancelled.today).toBe('2026-11-24');
    expect(cancelled.reservations).toMatchObject([
      {
        code,
        status: 'cancelled',
        customer_name: 'Ana García',
        cancelledBy: 'follower',
        cancelledAt: '2026-11-24T08:05:00.000Z',
        changedBy: 'follower',
      },
    ]);
    expect((await list('period=all&state=all')).reservations.map((r) => r.code)).toEqual([code]);
    expect((await list('period=all&state=changed')).reservations.map((r) => r.code)).toEqual([code]);
    expect(events.find((e) => e.code === code && e.kind === 'cancelled')).toMatchObject({
      by: 'follower',
      at: '2026-11-24T08:05:00.000Z',
      timezone: 'Europe/Madrid',
      durationMinutes: 60,
    });
  });

  it('lets the owner cancel from the viewer: kept as cancelled "by you", the slot free again', async () => {
    const code = await book('luis', 'domingo', 'Luis Pérez');
    const row = (await list('period=all')).reservations.find((r) => r.code === code)!;
    clock = new Date('2026-11-25T17:30:00Z');
    const http = await app.http();
    const stranger = await app.owner('otro-history@example.com');
    const denied = await http.inject({
      method: 'POST',
      url: `/api/reservations/${botId}/${row.id}/cancel`,
      headers: auth(stranger.token),
    });
    expect(denied.statusCode).toBe(404);
    const res = await http.inject({
      method: 'POST',
      url: `/api/reservations/${botId}/${row.id}/cancel`,
      headers: auth(owner.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { reservation: Record<string, unknown> }).reservation).toMatchObject({
      status: 'cancelled',
      cancelledBy: 'owner',
      cancelledAt: '2026-11-25T17:30:00.000Z',
    });
    const again = await http.inject({
      method: 'POST',
      url: `/api/reservations/${botId}/${row.id}/cancel`,
      headers: auth(owner.token),
    });
    expect(again.statusCode).toBe(404);
    expect(events.find((e) => e.code === code && e.kind === 'cancelled')).toMatchObject({ by: 'owner' });
    // Its 14:00 on Sunday is free again.
    const slots = await http.inject({
      method: 'GET',
      url: `/api/reservations/${botId}/slots?date=2026-11-29`,
      headers: auth(owner.token),
    });
    expect((slots.json() as { slots: Array<{ start: string }> }).slots.map((s) => s.start)).toContain(
      '14:00',
    );
  });

  it('gives the calendar a date range of active and cancelled bookings, and refuses bad queries', async () => {
    const week = await list('state=all&from=2026-11-23&to=2026-11-29');
    expect(week.reservations.map((r) => [r.date, r.start, r.status])).toEqual([
      ['2026-11-28', '21:00', 'cancelled'],
      ['2026-11-29', '14:00', 'cancelled'],
    ]);
    expect((await list('state=all&from=2026-11-29&to=2026-11-29')).reservations).toHaveLength(1);
    expect((await list('state=active&from=2026-11-23&to=2026-11-29')).reservations).toEqual([]);
    for (const bad of [
      'state=everything',
      'from=2026-11-23',
      'from=2026-11-29&to=2026-11-23',
      'from=2026-01-01&to=2026-12-31',
      'from=23-11-2026&to=2026-11-29',
    ]) {
      expect((await get(bad)).statusCode, bad).toBe(400);
    }
    const stranger = await app.owner('otro-history@example.com');
    expect((await get('state=cancelled', stranger.token)).statusCode).toBe(404);
  });
});
