/**
 * Reservation codes are not keys (issue 24 §4): through a running Charla, a follower other than the
 * one who booked (another web visitor, another Telegram chat) who has the right code cannot read,
 * move or cancel the booking and gets the same «not found» as for a code that does not exist; the
 * follower who booked can, and so can another chat that gives the booking's phone. Failed code
 * look-ups are limited per follower and per bot in the database: past the limit the follower is
 * refused even with the right code and phone, in the bot's language, while the booker still gets
 * in (in their chat, and from another chat with the phone); the limit lifts when its window ends.
 * Both paths: the model's tool calls and the offline dialogue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, limitSettings, RateLimiter } from '../engine/rate-limits.ts';
import { OWNER, samePhone } from '../plugins/reservations/access.ts';
import { defaultConfig, type ReservationConfig } from '../plugins/reservations/config.ts';
import { reservationsDb } from '../plugins/reservations/queries.ts';
import { Bookings } from '../plugins/reservations/service.ts';
import { createTestApp, fakeLlm, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { type FakeOpenAi, type FakeReply, type RecordedRequest, startFakeOpenAi } from './servers/openai.ts';
import { type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

const CODE_FAILURES_PER_FOLLOWER = LIMITS.reservationCodeFollower.max;
const CODE_FAILURES_PER_BOT = LIMITS.reservationCodeBot.max;
const CODE_WINDOW_MS = LIMITS.reservationCodeBot.windowMs;

/** Every day 13:00–23:30 but Monday, hour-long slots, one place; name, phone and party size required. */
function restaurant(): ReservationConfig {
  const open = { enabled: true, start: '13:00', end: '23:30', break_start: null, break_end: null };
  return {
    ...defaultConfig(),
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
  };
}

/** The Spanish «not found» a follower reads for a code they may not use (texts.ts). */
const notFound = (code: string) =>
  `No encuentro ninguna reserva con el código ${code}. Si la hiciste desde otro chat, escríbeme el código junto con el teléfono o el correo de la reserva.`;

describe('phones compared as the booking’s proof', () => {
  it('matches the same number however it is written, and nothing shorter or different', () => {
    expect(samePhone('+34 600 123 456', '600123456')).toBe(true);
    expect(samePhone('0034 600-12-34-56', '(600) 123 456')).toBe(true);
    expect(samePhone('600 123 457', '600 123 456')).toBe(false);
    expect(samePhone('123 456', '123456')).toBe(true);
    expect(samePhone('12345', '12345')).toBe(false);
    expect(samePhone('', null)).toBe(false);
  });
});

describe.each(dialectsOf(import.meta.url))('reservation codes on %s', (kind) => {
  // Monday 2026-11-23 10:00 in Madrid.
  let clock = new Date('2026-11-23T09:00:00Z');
  let llm: FakeOpenAi;
  let telegram: FakeTelegram;
  let app: TestApp;
  let offlineApp: TestApp;
  let script: Array<FakeReply | ((r: RecordedRequest) => FakeReply)> = [];

  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  /** A restaurant bot with reservations, its calendar, and its web widget on; returns its id and widget key. */
  const newBot = async (target: TestApp, email: string) => {
    const owner = await target.owner(email);
    const http = await target.http();
    const saved = await http.inject({
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
    const id = (saved.json() as { id: string }).id;
    const config = await http.inject({
      method: 'PUT',
      url: `/api/reservations/${id}/config`,
      headers: auth(owner.token),
      payload: restaurant(),
    });
    expect(config.statusCode, config.body).toBe(200);
    const toggled = await http.inject({
      method: 'POST',
      url: '/api/charla-web/toggle',
      headers: auth(owner.token),
      payload: { chatbotId: id, enabled: true },
    });
    expect(toggled.statusCode, toggled.body).toBe(200);
    const keyed = await http.inject({
      method: 'POST',
      url: '/api/charla-web/key',
      headers: auth(owner.token),
      payload: { chatbotId: id },
    });
    expect(keyed.statusCode, keyed.body).toBe(200);
    return { id, key: (keyed.json() as { charla_key: string }).charla_key, owner };
  };
  let messages = 0;
  /** A message from a web widget visitor; the bot's reply. */
  const web = async (target: TestApp, key: string, visitorId: string, userMessage: string) => {
    const res = await (await target.http()).inject({
      method: 'POST',
      url: `/api/web/${key}/message`,
      payload: { userMessage, visitorId, messageId: `msg-${++messages}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { reply: string }).reply;
  };
  /** A Telegram follower's message and the bot's next reply to that chat. */
  const tgSay = async (token: string, chatId: number, text: string) => {
    const before = telegram
      .callsOf(token, 'sendMessage')
      .filter((c) => String(c.params.chat_id) === `${chatId}`);
    await telegram.sendText(token, { id: chatId, first_name: `Chat ${chatId}` }, text);
    const calls = await telegram.waitFor(
      () =>
        telegram.callsOf(token, 'sendMessage').filter((c) => String(c.params.chat_id) === `${chatId}`)
          .length > before.length,
    );
    return String(
      calls.filter((c) => c.method === 'sendMessage' && String(c.params.chat_id) === `${chatId}`).at(-1)!
        .params.text,
    );
  };
  /** Connects a fake Telegram bot to a Charla bot. */
  const connectTelegram = async (
    target: TestApp,
    bot: { id: string; owner: { token: string } },
    tg: { token: string; username: string },
  ) => {
    const res = await (await target.http()).inject({
      method: 'POST',
      url: '/api/verify-telegram',
      headers: auth(bot.owner.token),
      payload: { telegramToken: tg.token, telegramUsername: tg.username, chatbotId: bot.id },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  /** The owner's view of a bot's reservations. */
  const list = async (target: TestApp, token: string, botId: string) => {
    const res = await (await target.http()).inject({
      method: 'GET',
      url: `/api/reservations/${botId}?period=all`,
      headers: auth(token),
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { reservations: Array<Record<string, unknown>> }).reservations;
  };
  /** The JSON results of the last `n` tool calls in a request to the model. */
  const toolResults = (r: RecordedRequest, n: number) =>
    r.messages
      .filter((m) => m.role === 'tool')
      .slice(-n)
      .map((m) => JSON.parse(m.content) as Record<string, unknown>);

  beforeAll(async () => {
    llm = await startFakeOpenAi({
      reply: (r) => {
        const next = script.shift();
        if (!next) return { text: 'Respuesta sin guion.' };
        return typeof next === 'function' ? next(r) : next;
      },
    });
    telegram = await startFakeTelegram();
    const env = { TELEGRAM_API_ROOT: telegram.apiRoot, TELEGRAM_MODE: 'polling' };
    app = await createTestApp(kind, { llm: fakeLlm(llm.baseURL), now: () => clock, env });
    await app.startChannels();
    offlineApp = await createTestApp(kind, { llm: null, now: () => clock, env });
    await offlineApp.startChannels();
  });
  afterAll(async () => {
    await app?.close();
    await offlineApp?.close();
    await llm?.close();
    await telegram?.close();
  });

  it('through the model’s tools, another web visitor with the right code cannot read, move or cancel the booking; the booker can', async () => {
    clock = new Date('2026-11-23T09:00:00Z');
    const bot = await newBot(app, 'tools-web@example.com');
    script = [
      {
        text: '',
        toolCalls: [
          {
            name: 'reservations_hold',
            arguments: {
              slot_id: '2026-11-28T14:00-15:00',
              customer_name: 'Ana García',
              phone: '600 123 456',
              party_size: 4,
            },
          },
        ],
      },
      (r) => ({ text: `Reservado. Tu código es ${toolResults(r, 1)[0]!.code}.` }),
    ];
    const booked = await web(
      app,
      bot.key,
      'web-ana',
      'Mesa para 4 el sábado a las 14:00, Ana García, 600 123 456',
    );
    const code = /código es ([A-Z0-9]{6})/.exec(booked)?.[1];
    expect(code, booked).toBeDefined();

    // Another visitor of the same widget, with the right code and a made-up one.
    let refused: Array<Record<string, unknown>> = [];
    script = [
      {
        text: '',
        toolCalls: [
          { name: 'reservations_lookup', arguments: { code } },
          { name: 'reservations_change', arguments: { code, slot_id: '2026-11-28T20:00-21:00' } },
          { name: 'reservations_cancel', arguments: { code } },
          { name: 'reservations_confirm', arguments: { code, phone: '699 000 000' } },
          { name: 'reservations_lookup', arguments: { code: 'QQ77QQ' } },
        ],
      },
      (r) => {
        refused = toolResults(r, 5);
        return { text: String(refused[0]!.say) };
      },
    ];
    const stranger = await web(app, bot.key, 'web-mallory', `Cancela la reserva ${code}`);
    expect(stranger).toBe(notFound(code!));
    const wrong = refused[4]!;
    expect(wrong).toMatchObject({ error: 'not_found', say: notFound('QQ77QQ') });
    // The same answer as a code that does not exist: nothing tells the code is real.
    for (const r of refused.slice(0, 4))
      expect({ ...r, say: String(r.say).replace(code!, 'QQ77QQ') }).toEqual(wrong);
    expect(await list(app, bot.owner.token, bot.id)).toMatchObject([
      { code, status: 'confirmed', start: '14:00', customer_contact: '600 123 456' },
    ]);

    // The visitor who booked reads and moves it.
    let mine: Array<Record<string, unknown>> = [];
    script = [
      {
        text: '',
        toolCalls: [
          { name: 'reservations_lookup', arguments: { code } },
          { name: 'reservations_change', arguments: { code, slot_id: '2026-11-28T20:00-21:00' } },
        ],
      },
      (r) => {
        mine = toolResults(r, 2);
        return { text: 'Cambiada.' };
      },
    ];
    await web(app, bot.key, 'web-ana', `Pasa mi reserva ${code} a las 20:00`);
    expect(mine).toMatchObject([
      { code, status: 'confirmed', time: '14:00' },
      { code, status: 'confirmed', time: '20:00' },
    ]);
    expect(await list(app, bot.owner.token, bot.id)).toMatchObject([
      { code, status: 'confirmed', start: '20:00' },
    ]);
  });

  it('through the model’s tools, another Telegram chat gets «not found» without the phone and cancels with it', async () => {
    clock = new Date('2026-11-23T09:00:00Z');
    const bot = await newBot(app, 'tools-tg@example.com');
    const tg = telegram.addBot('PatoCodigosBot');
    await connectTelegram(app, bot, tg);
    script = [
      {
        text: '',
        toolCalls: [
          {
            name: 'reservations_hold',
            arguments: {
              slot_id: '2026-11-29T21:00-22:00',
              customer_name: 'Marta',
              phone: '+34 611 222 333',
              party_size: 2,
            },
          },
        ],
      },
      (r) => ({ text: `Hecho, código ${toolResults(r, 1)[0]!.code}.` }),
    ];
    const booked = await tgSay(tg.token, 5001, 'Mesa para 2 el domingo a las 21:00, Marta, +34 611 222 333');
    const code = /código ([A-Z0-9]{6})/.exec(booked)![1]!;

    // Another chat with the right code only: told the same as for a wrong code; nothing changes.
    let result: Record<string, unknown> = {};
    const answer = (r: RecordedRequest) => {
      result = toolResults(r, 1)[0]!;
      return { text: String(result.say ?? `Cancelada (${result.status}).`) };
    };
    script = [{ text: '', toolCalls: [{ name: 'reservations_cancel', arguments: { code } }] }, answer];
    expect(await tgSay(tg.token, 5002, `Cancela mi reserva ${code}`)).toBe(notFound(code));
    expect(result.error).toBe('not_found');
    expect(await list(app, bot.owner.token, bot.id)).toMatchObject([{ code, status: 'confirmed' }]);

    // The chat that booked reads it.
    script = [{ text: '', toolCalls: [{ name: 'reservations_lookup', arguments: { code } }] }, answer];
    await tgSay(tg.token, 5001, `¿Cómo está mi reserva ${code}?`);
    expect(result).toMatchObject({ code, status: 'confirmed', date: '2026-11-29', time: '21:00' });

    // The other chat again, with the booking's phone written another way: cancelled.
    script = [
      { text: '', toolCalls: [{ name: 'reservations_cancel', arguments: { code, phone: '611 22 23 33' } }] },
      answer,
    ];
    expect(await tgSay(tg.token, 5002, `Cancela ${code}, mi teléfono es 611 22 23 33`)).toBe(
      'Cancelada (cancelled).',
    );
    expect(await list(app, bot.owner.token, bot.id)).toEqual([]);
  });

  it(`with no LLM, refuses a follower after ${CODE_FAILURES_PER_FOLLOWER} wrong codes even with the right code and phone, while the booker still gets in`, async () => {
    clock = new Date('2026-11-23T09:00:00Z');
    const bot = await newBot(offlineApp, 'offline-codes@example.com');
    expect(
      await web(offlineApp, bot.key, 'web-ana', 'Quiero reservar mesa para 2 el sábado a las 14:00'),
    ).toContain('¿A nombre de quién hago la reserva?');
    expect(await web(offlineApp, bot.key, 'web-ana', 'Ana García')).toBe('¿Un teléfono de contacto?');
    const done = await web(offlineApp, bot.key, 'web-ana', '600 123 456');
    const code = /código es ([A-Z0-9]{6})/.exec(done)![1]!;

    // Another visitor: the right code gets exactly what a made-up one gets, whatever they ask.
    const mallory = (text: string) => web(offlineApp, bot.key, 'web-mallory', text);
    expect(await mallory(`Cancela la reserva ${code}`)).toBe(notFound(code));
    expect(await mallory('Cancela la reserva QQ77QQ')).toBe(notFound('QQ77QQ'));
    expect(await mallory(`Quiero cambiar mi reserva ${code} al domingo`)).toBe(notFound(code));
    expect(await mallory(`¿Cómo está mi reserva ${code}?`)).toBe(notFound(code));
    expect(await mallory(`Cancela la reserva ${code}, mi teléfono es 600 999 999`)).toBe(notFound(code));
    // Five failures: now even the right code with the right phone is refused, for the window.
    const tooMany = (minutes: number) =>
      `Ha habido demasiados intentos con códigos que no encuentro. Vuelve a intentarlo dentro de ${minutes} min o contacta directamente con El Pato Pepe.`;
    expect(await mallory(`Cancela la reserva ${code}, mi teléfono es 600 123 456`)).toBe(tooMany(15));
    clock = new Date(clock.getTime() + CODE_WINDOW_MS - 60_000);
    expect(await mallory(`Cancela la reserva ${code}, mi teléfono es 600 123 456`)).toBe(tooMany(1));
    expect(await list(offlineApp, bot.owner.token, bot.id)).toMatchObject([{ code, status: 'confirmed' }]);

    // The booker, in their own chat and from a Telegram chat with the phone, still gets in.
    expect(await web(offlineApp, bot.key, 'web-ana', `¿Cómo está mi reserva ${code}?`)).toBe(
      `Tu reserva ${code}: sábado, 28 de noviembre, 14:00, 2 personas.`,
    );
    const tg = telegram.addBot('PatoOfflineBot');
    await connectTelegram(offlineApp, bot, tg);
    expect(await tgSay(tg.token, 6001, `Mi reserva ${code}`)).toBe(notFound(code));
    expect(await tgSay(tg.token, 6001, `Mi reserva ${code}, teléfono +34 600 12 34 56`)).toBe(
      `Tu reserva ${code}: sábado, 28 de noviembre, 14:00, 2 personas.`,
    );

    // The window over, the phone opens it again.
    clock = new Date(clock.getTime() + 2 * 60_000);
    expect(await mallory(`Cancela la reserva ${code}, mi teléfono es 600 123 456`)).toBe(
      `Tu reserva ${code} está cancelada.`,
    );
    expect(await list(offlineApp, bot.owner.token, bot.id)).toEqual([]);
  });

  it(`counts in the database: of 20 racing guesses ${CODE_FAILURES_PER_FOLLOWER} are looked up, and ${CODE_FAILURES_PER_BOT} failures close the bot to everyone but its bookers`, async () => {
    clock = new Date('2026-11-23T09:00:00Z');
    const bot = await newBot(app, 'bot-limit@example.com');
    // A second service on the same database, as another Charla process would have.
    const ctx = {
      jobs: { send: async () => null, cancel: async () => {} } as never,
      log: { error: () => {} } as never,
      now: () => clock,
      limits: new RateLimiter(app.store.db, limitSettings({}), () => clock),
    };
    const bookings = new Bookings(reservationsDb(app.store.db), ctx);
    const booker = { kind: 'follower', channel: 'telegram', chatId: '7001' } as const;
    const held = await bookings.hold(bot.id, {
      slotId: '2026-11-27T13:00-14:00',
      details: { customerName: 'Luis', customerContact: '600 555 444', partySize: 2 },
      follower: { channel: booker.channel, chatId: booker.chatId },
      idempotencyKey: null,
    });
    if (!held.ok) throw new Error(`not booked: ${held.reason}`);
    const code = held.reservation.reservation_code;

    const racer = { kind: 'follower', channel: 'web', chatId: 'racer' } as const;
    const race = await Promise.all(
      Array.from({ length: 20 }, () => bookings.lookup(bot.id, 'QQ77QQ', racer)),
    );
    const reasons = race.map((r) => (r.ok ? 'ok' : r.reason));
    expect(reasons.filter((r) => r === 'not_found')).toHaveLength(CODE_FAILURES_PER_FOLLOWER);
    expect(reasons.filter((r) => r === 'rate_limited')).toHaveLength(20 - CODE_FAILURES_PER_FOLLOWER);

    // New followers (a visitor id is free to make) until the bot has had its failures.
    for (let i = 0; (i + 1) * CODE_FAILURES_PER_FOLLOWER < CODE_FAILURES_PER_BOT; i++)
      for (let k = 0; k < CODE_FAILURES_PER_FOLLOWER; k++)
        expect(
          await bookings.lookup(bot.id, `QQ${k}${i}QQ`, {
            kind: 'follower',
            channel: 'web',
            chatId: `v${i}`,
          }),
        ).toEqual({ ok: false, reason: 'not_found' });
    const fresh = { kind: 'follower', channel: 'web', chatId: 'fresh', phone: '600555444' } as const;
    expect(await bookings.lookup(bot.id, code, fresh)).toMatchObject({ ok: false, reason: 'rate_limited' });
    // The booker in their own chat and the owner are not counted nor refused.
    expect(await bookings.lookup(bot.id, code, booker)).toMatchObject({ ok: true });
    expect(await bookings.lookup(bot.id, code, OWNER)).toMatchObject({ ok: true });
    // The bot's window over, the phone opens it again.
    clock = new Date(clock.getTime() + CODE_WINDOW_MS);
    expect(await bookings.lookup(bot.id, code, fresh)).toMatchObject({ ok: true });

    // CHARLA_RATE_LIMITS=off (benchmarks): nothing counted, the binding still holds.
    const unlimited = new Bookings(reservationsDb(app.store.db), {
      ...ctx,
      limits: new RateLimiter(app.store.db, limitSettings({ CHARLA_RATE_LIMITS: 'off' }), () => clock),
    });
    const free = await Promise.all(
      Array.from({ length: 20 }, () => unlimited.lookup(bot.id, code, { ...racer, chatId: 'racer-2' })),
    );
    expect(free.every((r) => !r.ok && r.reason === 'not_found')).toBe(true);
  });
});
