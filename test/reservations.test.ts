/**
 * Reservations (issue 12) through a running Charla: slots in the business's time zone across DST
 * changes; no double booking enforced by the database (20 racing bookings, 3 places); the model
 * booking through the tools over HTTP and over Telegram, a replayed message booking once; the
 * offline dialogue booking a table for 4 with no LLM; reminders going out through the follower's
 * channel once, none for a cancelled reservation; and the owner's routes behind the viewer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, type ReservationConfig } from '../plugins/reservations/config.ts';
import { parseDate, parsePartySize, parseTime } from '../plugins/reservations/parse.ts';
import { slotsOfDate } from '../plugins/reservations/slots.ts';
import { createTestApp, fakeLlm, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { type FakeOpenAi, type FakeReply, type RecordedRequest, startFakeOpenAi } from './servers/openai.ts';
import { type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

/** A restaurant's calendar: every day but Monday 13:00–23:30, closed 16:30–20:00, hour-long slots. */
function restaurant(overrides: Partial<ReservationConfig> = {}): ReservationConfig {
  const open = { enabled: true, start: '13:00', end: '23:30', break_start: '16:30', break_end: '20:00' };
  const base = defaultConfig();
  return {
    ...base,
    calendar_name: '',
    working_hours: {
      monday: { ...open, enabled: false },
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
    ...overrides,
  };
}

describe('slots in the business’s time zone', () => {
  const allDay = (minutes: 30 | 60): ReservationConfig => {
    const day = { enabled: true, start: '00:00', end: '24:00', break_start: null, break_end: null };
    return {
      ...defaultConfig(),
      slot_minutes: minutes,
      working_hours: {
        monday: day,
        tuesday: day,
        wednesday: day,
        thursday: day,
        friday: day,
        saturday: day,
        sunday: day,
      },
    };
  };

  it.each([30, 60] as const)(
    'never offers 02:00–03:00 on 2026-03-29 in Madrid (%s-minute slots)',
    (minutes) => {
      const slots = slotsOfDate(allDay(minutes), '2026-03-29');
      expect(slots.some((s) => s.start >= '02:00' && s.start < '03:00')).toBe(false);
      expect(slots).toHaveLength((24 * 60) / minutes - 60 / minutes);
      expect(slots.find((s) => s.start === '03:00')!.startsAt.toISOString()).toBe('2026-03-29T01:00:00.000Z');
      expect(new Set(slots.map((s) => s.startsAt.getTime())).size).toBe(slots.length);
    },
  );

  it('offers 02:00 once on 2026-10-25 in Madrid, and no two slots at the same instant or id', () => {
    const slots = slotsOfDate(allDay(60), '2026-10-25');
    expect(slots.filter((s) => s.start === '02:00')).toHaveLength(1);
    expect(slots).toHaveLength(24);
    expect(new Set(slots.map((s) => s.id)).size).toBe(24);
    expect(new Set(slots.map((s) => s.startsAt.getTime())).size).toBe(24);
    for (const s of slots) expect(s.endsAt.getTime()).toBeGreaterThan(s.startsAt.getTime());
  });

  it('lays out the restaurant’s lunch and dinner, nothing in its break, nothing on Monday', () => {
    expect(slotsOfDate(restaurant(), '2026-11-28').map((s) => s.start)).toEqual([
      '13:00',
      '14:00',
      '15:00',
      '20:00',
      '21:00',
      '22:00',
    ]);
    expect(slotsOfDate(restaurant(), '2026-11-30')).toEqual([]);
    const multi = slotsOfDate(restaurant({ reservation_type: 'multi_hour' }), '2026-11-28');
    expect(multi.map((s) => `${s.start}-${s.end}`)).toEqual(['09:00-13:00', '13:00-18:00', '09:00-18:00']);
  });

  it('reads dates, times and party sizes the way followers write them', () => {
    const monday = '2026-11-23';
    expect(parseDate('mesa el sábado', monday)).toBe('2026-11-28');
    expect(parseDate('para mañana', monday)).toBe('2026-11-24');
    expect(parseDate('pasado mañana', monday)).toBe('2026-11-25');
    expect(parseDate('el 28/11', monday)).toBe('2026-11-28');
    expect(parseDate('el 2/1', monday)).toBe('2027-01-02');
    expect(parseDate('hola', monday)).toBeNull();
    expect(parseTime('a las 14:30')).toBe('14:30');
    expect(parseTime('a las 9')).toBe('09:00');
    expect(parseTime('at 8pm')).toBe('20:00');
    expect(parsePartySize('mesa para 4 el sábado')).toBe(4);
    expect(parsePartySize('somos 6 personas')).toBe(6);
    expect(parsePartySize('para el 28/11')).toBeNull();
  });
});

describe.each(dialectsOf(import.meta.url))('reservations on %s', (kind) => {
  // Monday 2026-11-23 10:00 in Madrid; the clock moves where a test needs it.
  let clock = new Date('2026-11-23T09:00:00Z');
  let llm: FakeOpenAi;
  let telegram: FakeTelegram;
  let app: TestApp;
  let offlineApp: TestApp;
  let script: Array<FakeReply | ((r: RecordedRequest) => FakeReply)> = [];
  let owner: { id: string; token: string };
  let botId: string;
  let tgToken = '';

  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const saveBot = async (target: TestApp, token: string) => {
    const res = await (await target.http()).inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: auth(token),
      payload: {
        business_name: 'El Pato Pepe',
        business_description: 'Restaurante familiar en Madrid.',
        idioma: 'Español',
        enable_reservations: true,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { id: string }).id;
    const saved = await (await target.http()).inject({
      method: 'PUT',
      url: `/api/reservations/${id}/config`,
      headers: auth(token),
      payload: restaurant(),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    return id;
  };
  const chat = async (
    target: TestApp,
    chatbotId: string,
    userMessage: string,
    messageId: string,
    visitor = 'ana',
    token = owner.token,
  ) => {
    // The owner's test chat (channel `test`): the bot's owner signed in (issue 24 §2).
    const res = await (await target.http()).inject({
      method: 'POST',
      url: `/api/chatbot-message/${chatbotId}`,
      headers: auth(token),
      payload: { userMessage, visitorId: visitor, messageId, channel: 'test' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { reply: string; duplicate: boolean };
  };
  const list = async (target: TestApp, token: string, chatbotId: string, period = 'all') => {
    const res = await (await target.http()).inject({
      method: 'GET',
      url: `/api/reservations/${chatbotId}?period=${period}`,
      headers: auth(token),
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { reservations: Array<Record<string, unknown>> }).reservations;
  };
  /** The JSON result of the last tool call in a request to the model. */
  const lastToolResult = (r: RecordedRequest) =>
    JSON.parse(r.messages.at(-1)!.content) as Record<string, unknown>;

  beforeAll(async () => {
    llm = await startFakeOpenAi({
      reply: (r) => {
        const next = script.shift();
        if (!next) return { text: 'Respuesta sin guion.' };
        return typeof next === 'function' ? next(r) : next;
      },
    });
    telegram = await startFakeTelegram();
    app = await createTestApp(kind, {
      llm: fakeLlm(llm.baseURL),
      now: () => clock,
      env: { TELEGRAM_API_ROOT: telegram.apiRoot, TELEGRAM_MODE: 'polling' },
    });
    await app.startChannels(); // as `charla serve`: the supervisor and the job queue (reminders)
    owner = await app.owner('pepe@example.com');
    botId = await saveBot(app, owner.token);
    offlineApp = await createTestApp(kind, {
      llm: null,
      now: () => clock,
      env: { TELEGRAM_API_ROOT: telegram.apiRoot, TELEGRAM_MODE: 'polling' },
    });
    await offlineApp.startChannels();
  });
  afterAll(async () => {
    await app?.close();
    await offlineApp?.close();
    await llm?.close();
    await telegram?.close();
  });

  it('books through the model’s tool calls by slot id, and a replayed message books once', async () => {
    clock = new Date('2026-11-23T09:00:00Z');
    script = [
      {
        text: '',
        toolCalls: [{ name: 'reservations_free_slots', arguments: { from: '2026-11-28', days: 1 } }],
      },
      (r) => {
        const slots = lastToolResult(r).slots as Array<{ id: string; start: string }>;
        const slot = slots.find((s) => s.start === '14:00')!;
        return {
          text: '',
          toolCalls: [
            {
              name: 'reservations_hold',
              arguments: {
                slot_id: slot.id,
                customer_name: 'Ana García',
                phone: '600 123 456',
                party_size: 4,
              },
            },
          ],
        };
      },
      (r) => ({ text: `Reservado. Tu código es ${lastToolResult(r).code}.` }),
    ];
    const answer = await chat(
      app,
      botId,
      'Mesa para 4 el sábado a las 14:00, soy Ana García, 600 123 456',
      'm-1',
    );
    const code = /código es ([A-Z0-9]{6})/.exec(answer.reply)?.[1];
    expect(code, answer.reply).toBeDefined();
    // The system prompt told the model today's date in the calendar's zone and the rules.
    expect(llm.requests.at(-3)!.messages[0]!.content).toContain(
      'Today is monday 2026-11-23 in Europe/Madrid',
    );

    const rows = await list(app, owner.token, botId);
    expect(rows).toMatchObject([
      {
        code,
        status: 'confirmed',
        date: '2026-11-28',
        start: '14:00',
        end: '15:00',
        party_size: 4,
        customer_name: 'Ana García',
      },
    ]);

    // The same follower message again: answered from the store, no second reservation.
    const requests = llm.requests.length;
    const again = await chat(
      app,
      botId,
      'Mesa para 4 el sábado a las 14:00, soy Ana García, 600 123 456',
      'm-1',
    );
    expect(again.duplicate).toBe(true);
    expect(llm.requests.length).toBe(requests);
    expect(await list(app, owner.token, botId)).toHaveLength(1);
  });

  it('refuses a free-typed time and a taken slot, offering the next free ones', async () => {
    script = [
      {
        text: '',
        toolCalls: [{ name: 'reservations_hold', arguments: { slot_id: '2026-11-28T14:30-15:30' } }],
      },
      (r) => {
        expect(lastToolResult(r)).toMatchObject({ error: 'unknown_slot' });
        return {
          text: '',
          toolCalls: [{ name: 'reservations_hold', arguments: { slot_id: '2026-11-28T14:00-15:00' } }],
        };
      },
      (r) => {
        const result = lastToolResult(r) as { error: string; alternatives: Array<{ start: string }> };
        expect(result.error).toBe('full');
        expect(result.alternatives.map((a) => a.start).slice(0, 3)).toEqual(['13:00', '15:00', '20:00']);
        return { text: 'Ese hueco está lleno.' };
      },
    ];
    const answer = await chat(app, botId, 'Otra mesa el sábado a las 14:00', 'm-2', 'luis');
    expect(answer.reply).toBe('Ese hueco está lleno.');
    expect(await list(app, owner.token, botId)).toHaveLength(1);
  });

  it('lets exactly 3 of 20 racing bookings take a slot with 3 places', async () => {
    const put = await (await app.http()).inject({
      method: 'PUT',
      url: `/api/reservations/${botId}/config`,
      headers: auth(owner.token),
      payload: restaurant({ allow_simultaneous: true, max_simultaneous: 3 }),
    });
    expect(put.statusCode, put.body).toBe(200);
    const http = await app.http();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        http.inject({
          method: 'POST',
          url: `/api/reservations/${botId}`,
          headers: auth(owner.token),
          payload: {
            slotId: '2026-11-29T21:00-22:00',
            customer_name: `Cliente ${i}`,
            phone: '600000000',
            party_size: 2,
          },
        }),
      ),
    );
    // Every loser hears `full` (409), none a 503 from waiting on the others.
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([...Array(3).fill(200), ...Array(17).fill(409)]);
    const sunday = (await list(app, owner.token, botId)).filter((r) => r.date === '2026-11-29');
    expect(sunday).toHaveLength(3);
    // Back to one place per slot for the next tests.
    await http.inject({
      method: 'PUT',
      url: `/api/reservations/${botId}/config`,
      headers: auth(owner.token),
      payload: restaurant(),
    });
  });

  it('books over Telegram through the tools, and reminds the follower 2 h before, once', async () => {
    const tg = telegram.addBot('PatoPepeBot');
    tgToken = tg.token;
    const connected = await (await app.http()).inject({
      method: 'POST',
      url: '/api/verify-telegram',
      headers: auth(owner.token),
      payload: { telegramToken: tg.token, telegramUsername: tg.username, chatbotId: botId },
    });
    expect(connected.statusCode, connected.body).toBe(200);
    // Two hours and 3 seconds before Tuesday 2026-11-24 20:00 in Madrid (19:00Z): the 2 h reminder is due in 3 s.
    clock = new Date(Date.parse('2026-11-24T19:00:00Z') - 2 * 3_600_000 - 3_000);
    script = [
      {
        text: '',
        toolCalls: [
          {
            name: 'reservations_hold',
            arguments: {
              slot_id: '2026-11-24T20:00-21:00',
              customer_name: 'Marta',
              phone: '+34 611 222 333',
              party_size: 2,
            },
          },
        ],
      },
      (r) => ({ text: `Hecho, código ${lastToolResult(r).code}.` }),
    ];
    await telegram.sendText(tg.token, { id: 4242, first_name: 'Marta' }, 'Mesa para 2 hoy a las 20:00');
    const confirmed = await telegram.waitFor((calls) =>
      calls.some(
        (c) =>
          c.method === 'sendMessage' &&
          String(c.params.chat_id) === '4242' &&
          /código/.test(String(c.params.text)),
      ),
    );
    const code = /código ([A-Z0-9]{6})/.exec(
      String(
        confirmed.find((c) => c.method === 'sendMessage' && /código/.test(String(c.params.text)))!.params
          .text,
      ),
    )![1]!;
    const reminder = await telegram.waitFor(
      (calls) => calls.some((c) => c.method === 'sendMessage' && /Recordatorio/.test(String(c.params.text))),
      15_000,
    );
    const reminders = reminder.filter(
      (c) => c.method === 'sendMessage' && /Recordatorio/.test(String(c.params.text)),
    );
    expect(reminders).toHaveLength(1);
    expect(String(reminders[0]!.params.chat_id)).toBe('4242');
    expect(String(reminders[0]!.params.text)).toContain('dentro de 2 horas');
    expect(String(reminders[0]!.params.text)).toContain(code);
    // Stored in the conversation for the owner to read (right after the channel accepted it).
    await expect
      .poll(async () => {
        const stored = await app.store.db
          .selectFrom('conversation_messages')
          .select('text')
          .where('chatbot_id', '=', botId)
          .where('user_id', '=', '4242')
          .execute();
        return stored.some((m) => /Recordatorio/.test(m.text ?? ''));
      })
      .toBe(true);
  });

  it('sends no reminder for a cancelled reservation', async () => {
    clock = new Date(Date.parse('2026-11-25T19:00:00Z') - 2 * 3_600_000 - 2_000);
    const tg = tgToken;
    const added = await (await app.http()).inject({
      method: 'POST',
      url: `/api/reservations/${botId}`,
      headers: auth(owner.token),
      payload: {
        slotId: '2026-11-25T20:00-21:00',
        customer_name: 'Pablo',
        phone: '600999888',
        party_size: 3,
      },
    });
    expect(added.statusCode, added.body).toBe(200);
    script = [
      {
        text: '',
        toolCalls: [
          {
            name: 'reservations_cancel',
            // Added by the owner: no chat booked it, so the follower proves it with its phone.
            arguments: {
              code: (added.json() as { reservation: { code: string } }).reservation.code,
              phone: '600 999 888',
            },
          },
        ],
      },
      { text: 'Cancelada.' },
    ];
    await chat(app, botId, 'Cancela mi reserva', 'm-cancel');
    const rows = await list(app, owner.token, botId);
    expect(rows.some((r) => r.date === '2026-11-25')).toBe(false);
    await new Promise((r) => setTimeout(r, 4_000));
    expect(
      telegram.callsOf(tg, 'sendMessage').filter((c) => /Pablo|2026-11-25/.test(String(c.params.text))),
    ).toEqual([]);
    const reminders = telegram
      .callsOf(tg, 'sendMessage')
      .filter((c) => /Recordatorio/.test(String(c.params.text)));
    expect(reminders).toHaveLength(1); // only the previous test's
  });

  it('books on the web widget’s channel and the widget fetches the reminder', async () => {
    const http = await app.http();
    const toggled = await http.inject({
      method: 'POST',
      url: '/api/charla-web/toggle',
      headers: auth(owner.token),
      payload: { chatbotId: botId, enabled: true },
    });
    expect(toggled.statusCode, toggled.body).toBe(200);
    const keyed = await http.inject({
      method: 'POST',
      url: '/api/charla-web/key',
      headers: auth(owner.token),
      payload: { chatbotId: botId },
    });
    expect(keyed.statusCode, keyed.body).toBe(200);
    const key = (keyed.json() as { charla_key: string }).charla_key;
    // 2 h and 3 s before Thursday 2026-11-26 20:00 in Madrid.
    clock = new Date(Date.parse('2026-11-26T19:00:00Z') - 2 * 3_600_000 - 3_000);
    script = [
      {
        text: '',
        toolCalls: [
          {
            name: 'reservations_hold',
            arguments: {
              slot_id: '2026-11-26T20:00-21:00',
              customer_name: 'Eva',
              phone: '600 555 444',
              party_size: 3,
            },
          },
        ],
      },
      (r) => ({ text: `Hecho, código ${lastToolResult(r).code}.` }),
    ];
    const booked = await http.inject({
      method: 'POST',
      url: `/api/web/${key}/message`,
      payload: { userMessage: 'Mesa para 3 hoy a las 20:00', visitorId: 'web-eva', messageId: 'w-1' },
    });
    expect(booked.statusCode, booked.body).toBe(200);
    expect((booked.json() as { reply: string }).reply).toMatch(/código [A-Z0-9]{6}/);
    const pushed = async (after?: string) =>
      (
        await http.inject({
          method: 'GET',
          url: `/api/web/${key}/pushed?visitorId=web-eva${after ? `&after=${after}` : ''}`,
        })
      ).json() as { messages: Array<{ text: string; from: string }>; last: string | null };
    // Nothing yet: the reply to the booking is not a pushed message.
    expect((await pushed()).messages).toEqual([]);
    await expect
      .poll(async () => (await pushed()).messages.map((m) => m.text).join(' '), {
        timeout: 15_000,
        interval: 500,
      })
      .toContain('Recordatorio: dentro de 2 horas');
    const seen = await pushed();
    expect(seen.messages).toHaveLength(1);
    expect(seen.messages[0]!.from).toBe('bot');
    // The widget keeps `last`: asking again after it gives nothing new; another visitor gets nothing.
    expect((await pushed(seen.last!)).messages).toEqual([]);
    const stranger = await http.inject({ method: 'GET', url: `/api/web/${key}/pushed?visitorId=web-otro` });
    expect((stranger.json() as { messages: unknown[] }).messages).toEqual([]);
  });

  it('books a table for 4 with no LLM: the offline dialogue asks what is missing and gives a code', async () => {
    clock = new Date('2026-11-23T09:00:00Z');
    const o = await offlineApp.owner('offline@example.com');
    const id = await saveBot(offlineApp, o.token);
    const first = await chat(
      offlineApp,
      id,
      'Hola, quiero reservar una mesa para 4 el sábado',
      'o-1',
      'ana',
      o.token,
    );
    expect(first.reply).toContain('Huecos libres para el sábado, 28 de noviembre');
    expect(first.reply).toContain('2. 14:00–15:00');
    const second = await chat(offlineApp, id, '2', 'o-2', 'ana', o.token);
    expect(second.reply).toContain('¿A nombre de quién hago la reserva?');
    const third = await chat(offlineApp, id, 'Ana García', 'o-3', 'ana', o.token);
    expect(third.reply).toBe('¿Un teléfono de contacto?');
    const bad = await chat(offlineApp, id, 'no sé', 'o-4', 'ana', o.token);
    expect(bad.reply).toContain('Ese teléfono no parece correcto');
    const done = await chat(offlineApp, id, '600 123 456', 'o-5', 'ana', o.token);
    expect(done.reply).toMatch(
      /✅ Reserva confirmada en El Pato Pepe: sábado, 28 de noviembre, 14:00, 4 personas\. Tu código es [A-Z0-9]{6}/,
    );
    const code = /código es ([A-Z0-9]{6})/.exec(done.reply)![1]!;
    expect(await list(offlineApp, o.token, id)).toMatchObject([
      {
        code,
        status: 'confirmed',
        party_size: 4,
        customer_name: 'Ana García',
        customer_contact: '600 123 456',
      },
    ]);

    // Another follower asks for the same time: taken, the next free ones are offered.
    const other = await chat(offlineApp, id, 'Reservar el sábado a las 14:00 para 2', 'o-6', 'luis', o.token);
    expect(other.reply).not.toContain('14:00–15:00');
    expect(other.reply).toContain('13:00–14:00');

    const cancelled = await chat(offlineApp, id, `Cancela la reserva ${code}`, 'o-7', 'ana', o.token);
    expect(cancelled.reply).toBe(`Tu reserva ${code} está cancelada.`);
    expect(await list(offlineApp, o.token, id)).toEqual([]);
  });

  it('lets the owner mark a reservation paid and completed, delete it, and keeps other owners out', async () => {
    const http = await app.http();
    const rows = await list(app, owner.token, botId);
    const target = rows[0]!;
    const paid = await http.inject({
      method: 'PATCH',
      url: `/api/reservations/${botId}/${target.id}`,
      headers: auth(owner.token),
      payload: { is_paid: true },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect((paid.json() as { reservation: { is_paid: boolean } }).reservation.is_paid).toBe(true);
    const stranger = await app.owner('otro@example.com');
    const denied = await http.inject({
      method: 'GET',
      url: `/api/reservations/${botId}`,
      headers: auth(stranger.token),
    });
    expect(denied.statusCode).toBe(404);
    const bad = await http.inject({
      method: 'PUT',
      url: `/api/reservations/${botId}/config`,
      headers: auth(owner.token),
      payload: restaurant({ allow_simultaneous: true, max_simultaneous: 1 }),
    });
    expect(bad.statusCode).toBe(400);
    const deleted = await http.inject({
      method: 'DELETE',
      url: `/api/reservations/${botId}/${target.id}`,
      headers: auth(owner.token),
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await list(app, owner.token, botId)).some((r) => r.id === target.id)).toBe(false);
  });
});
