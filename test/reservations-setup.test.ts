/**
 * Issue 29 §Reservations, set up in one go: the first calendar fits the business (the hours the
 * owner wrote in the description, in the bot languages; a restaurant's lunch and dinner services,
 * party size asked, several bookings per slot); every IANA time zone and only those; the wizard's
 * save turns reservations on; and, with no LLM, the booking dialogue offers the free slots as
 * choices on the wire (web JSON `choices`, a Telegram inline keyboard, a WhatsApp Cloud
 * interactive list), a tap books like a typed answer, and "allow comments" asks for one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTelegramAdapter } from '../adapters/telegram/index.ts';
import { createWebAdapter } from '../adapters/web/index.ts';
import { createWhatsAppAdapter, type WhatsAppAdapter } from '../adapters/whatsapp/index.ts';
import type { ChannelAdapter } from '../engine/registry/index.ts';
import { isTimeZone, timeZones } from '../plugins/reservations/config.ts';
import { hoursInText, suggestConfig } from '../plugins/reservations/suggest.ts';
import { createTestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { type App, ownerWithBot, until, withInject } from './helpers/owners.ts';
import { type FakeGraph, hubSignature, messageWebhook, startFakeGraph } from './servers/graph.ts';
import { type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

const DESCRIPTION =
  'Arrocería La Albufera, en Valencia. Abrimos de 13:00 a 16:00 y de 20:00 a 23:30, cerrado los lunes.';
const APP_SECRET = 'meta-app-secret-for-tests';

describe('a first calendar that fits the business', () => {
  it('reads opening hours in the seven bot languages', () => {
    const cases: Array<[string, string[] | null, string[]]> = [
      ['Lunes a sábado 9–14', ['monday', 'saturday'], ['09:00-14:00']],
      ['Open Monday to Friday, 10:00-18:00', ['monday', 'friday'], ['10:00-18:00']],
      [
        'Ouvert du mardi au samedi de 12h à 14h30 et de 19h à 22h30',
        ['tuesday', 'saturday'],
        ['12:00-14:30', '19:00-22:30'],
      ],
      ['Dal lunedì al venerdì 8:30-13:00', ['monday', 'friday'], ['08:30-13:00']],
      [
        'Geöffnet Di bis So 12:00–15:00 und 18:30–22:00, Montag Ruhetag',
        ['tuesday', 'sunday'],
        ['12:00-15:00', '18:30-22:00'],
      ],
      ['Открыто с понедельника по пятницу 10:00–19:00', ['monday', 'friday'], ['10:00-19:00']],
      ['सोमवार से शनिवार 10:00 से 18:00', ['monday', 'saturday'], ['10:00-18:00']],
    ];
    for (const [text, days, services] of cases) {
      const found = hoursInText(text)!;
      expect(found, text).not.toBeNull();
      expect(
        found.services.map((s) => `${s.start}-${s.end}`),
        text,
      ).toEqual(services);
      expect([found.days?.[0], found.days?.at(-1)], text).toEqual(days);
    }
    expect(hoursInText('Teléfono 600 123 456, calle Mayor 5/7')).toBeNull();
  });

  it('takes the description’s hours, or a restaurant’s services, with party size and capacity', () => {
    const c = suggestConfig({ description: DESCRIPTION, category: '', browserZone: 'America/Bogota' });
    expect(c.timezone).toBe('America/Bogota');
    expect(c.working_hours.monday.enabled).toBe(false);
    expect(c.working_hours.saturday).toEqual({
      enabled: true,
      start: '13:00',
      end: '23:30',
      break_start: '16:00',
      break_end: '20:00',
    });
    expect([c.require_group_size, c.allow_simultaneous, c.max_simultaneous]).toEqual([true, true, 10]);
    // A pizzeria that wrote no hours: lunch and dinner every day.
    const pizza = suggestConfig({
      description: 'Pizzería napolitana',
      category: '',
      browserZone: 'Nowhere/X',
    });
    expect(pizza.timezone).toBe('Europe/Madrid');
    expect(pizza.working_hours.sunday).toMatchObject({ enabled: true, start: '13:00', end: '23:30' });
    // A dentist: the spec's defaults, one at a time.
    const dentist = suggestConfig({ description: 'Clínica dental', category: 'Empresa o Profesional' });
    expect(dentist.working_hours.monday).toMatchObject({ enabled: true, start: '09:00', end: '18:00' });
    expect(dentist.max_simultaneous).toBe(1);
  });

  it('knows every IANA time zone and nothing else', () => {
    expect(timeZones().length).toBeGreaterThan(300);
    expect(timeZones()).toContain('Asia/Tokyo');
    for (const z of ['Europe/Madrid', 'America/Argentina/Buenos_Aires', 'UTC', 'Etc/GMT+5'])
      expect(isTimeZone(z)).toBe(true);
    for (const z of ['Mars/Olympus', 'Europe/Madri', '', 'Europe/../Madrid'])
      expect(isTimeZone(z), z).toBe(false);
  });
});

describe.each(dialectsOf(import.meta.url))('setting up and booking on %s', (kind) => {
  // Monday 2026-11-23 10:00 in Madrid.
  const clock = new Date('2026-11-23T09:00:00Z');
  let app: App;
  let telegram: FakeTelegram;
  let graph: FakeGraph;
  let whatsapp: WhatsAppAdapter;
  let owner: { token: string; botId: string };
  const auth = () => ({ authorization: `Bearer ${owner.token}` });

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    graph = await startFakeGraph();
    whatsapp = createWhatsAppAdapter();
    app = await withInject(
      await createTestApp(kind, {
        llm: null,
        now: () => clock,
        env: {
          TELEGRAM_API_ROOT: telegram.apiRoot,
          TELEGRAM_MODE: 'polling',
          WHATSAPP_GRAPH_URL: graph.url,
          META_APP_ID: '1234567890',
          META_APP_SECRET: APP_SECRET,
          WHATSAPP_VERIFY_TOKEN: 'verify',
        },
        supervisorIntervalMs: 200,
        adapters: [createWebAdapter(), createTelegramAdapter(), whatsapp as unknown as ChannelAdapter<never>],
      }),
    );
    await app.startChannels();
    owner = await ownerWithBot(app, 'albufera@example.com', {
      business_name: 'La Albufera',
      business_description: DESCRIPTION,
      idioma: 'Español',
    });
  });
  afterAll(async () => {
    await app?.close();
    await telegram?.close();
    await graph?.close();
  });

  it('checks the time zone and turns reservations on with the wizard’s one save', async () => {
    const config = suggestConfig({ description: DESCRIPTION, category: '', browserZone: 'Europe/Madrid' });
    const put = (timezone: string) =>
      app.inject({
        method: 'PUT',
        url: `/api/reservations/${owner.botId}/config`,
        headers: auth(),
        payload: { ...config, timezone },
      });
    const bad = await put('Mars/Olympus');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('timezone');
    const mine = async () =>
      (
        (await app.inject({ method: 'GET', url: '/api/my-chatbot', headers: auth() })).json() as {
          bot: { enable_reservations: boolean };
        }
      ).bot;
    expect((await mine()).enable_reservations).toBe(false);
    expect((await put('Europe/Madrid')).statusCode).toBe(200);
    expect((await mine()).enable_reservations).toBe(true);
  });

  it('offers slots as web choices, books by a tap, and asks for a comment', async () => {
    const chat = async (userMessage: string, n: number) => {
      const res = await app.inject({
        method: 'POST',
        url: `/api/chatbot-message/${owner.botId}`,
        headers: auth(),
        payload: { userMessage, visitorId: 'web-ana', messageId: `w-${n}`, channel: 'test' },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { reply: string; choices?: Array<{ id: string; label: string }> };
    };
    const offer = await chat('Quiero reservar mesa para 2 el sábado', 1);
    expect(offer.choices?.map((c) => c.label)).toEqual([
      '13:00–14:00',
      '14:00–15:00',
      '15:00–16:00',
      '20:00–21:00',
      '21:00–22:00',
      '22:00–23:00',
    ]);
    expect(offer.reply).toContain('4. 20:00–21:00');
    const held = await chat('21:00–22:00', 2);
    expect(held.reply).toContain('¿A nombre de quién');
    expect(held.choices).toBeUndefined();
    await chat('Ana García', 3);
    const confirmed = await chat('600 123 456', 4);
    expect(confirmed.reply).toContain('Reserva confirmada');
    expect(confirmed.reply).toContain('¿Algún comentario?');
    expect((await chat('Una trona para el bebé, por favor', 5)).reply).toBe(
      'Anotado, gracias. Lo verá el equipo.',
    );
    const list = await app.inject({
      method: 'GET',
      url: `/api/reservations/${owner.botId}?period=all`,
      headers: auth(),
    });
    const rows = (list.json() as { reservations: Array<Record<string, unknown>> }).reservations;
    expect(rows.find((r) => r.customer_name === 'Ana García')).toMatchObject({
      start: '21:00',
      party_size: 2,
      reason: 'Una trona para el bebé, por favor',
    });
  });

  it('offers slots as a Telegram inline keyboard; a tap books it', async () => {
    const bot = telegram.addBot('albufera_bot');
    const res = await app.inject({
      method: 'POST',
      url: '/api/verify-telegram',
      headers: auth(),
      payload: { telegramToken: bot.token, telegramUsername: 'albufera_bot', chatbotId: owner.botId },
    });
    expect(res.statusCode, res.body).toBe(200);
    await telegram.sendText(bot.token, { id: 501, first_name: 'Luis' }, 'Reservar mesa para 3 el sábado');
    const offered = () =>
      telegram
        .callsOf(bot.token, 'sendMessage')
        .find((c) => c.params.chat_id === '501' && c.params.reply_markup);
    await telegram.waitFor(() => offered() !== undefined);
    const offer = offered();
    const markup = offer!.params.reply_markup as {
      inline_keyboard: Array<Array<{ text: string; callback_data: string }>>;
    };
    const buttons = markup.inline_keyboard.flat();
    expect(buttons[0]).toEqual({ text: '13:00–14:00', callback_data: 'f:2026-11-28T13:00-14:00' });
    expect(buttons).toHaveLength(6);
    await telegram.deliver(bot.token, {
      update_id: telegram.nextUpdateId(),
      callback_query: {
        id: 'cbq-slot',
        from: { id: 501, is_bot: false, first_name: 'Luis' },
        chat_instance: 'x',
        data: buttons[1]!.callback_data,
        message: {
          message_id: 7,
          date: 1,
          chat: { id: 501, type: 'private' },
          text: String(offer!.params.text),
          reply_markup: markup,
        },
      },
    });
    const askedName = () =>
      telegram
        .callsOf(bot.token, 'sendMessage')
        .find((c) => c.params.chat_id === '501' && String(c.params.text).includes('A nombre de quién'));
    await telegram.waitFor(() => askedName() !== undefined);
    const asked = askedName()!;
    expect(String(asked.params.text)).toContain('14:00');
  });

  it('offers slots as a WhatsApp Cloud interactive list; a row books it', async () => {
    const token = 'EAAtoken7777xxxxxxxxxxxxxxxxxxxxxxxx';
    graph.addNumber({
      id: '7777',
      display_phone_number: '+34 655 000 777',
      verified_name: 'Albufera',
      tokens: [token],
    });
    const res = await app.inject({
      method: 'POST',
      url: '/api/connect-whatsapp-cloud',
      headers: auth(),
      payload: {
        chatbotId: owner.botId,
        phoneNumberId: '7777',
        businessAccountId: '7000',
        accessToken: token,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await until(() => whatsapp.connections.connected().includes(owner.botId), 5000, 'connected');
    const webhook = (body: unknown) => {
      const raw = JSON.stringify(body);
      return app.inject({
        method: 'POST',
        url: '/channels/whatsapp',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(raw, APP_SECRET) },
        payload: raw,
      });
    };
    const from = { waId: '34600777888' };
    await webhook(
      messageWebhook('7777', from, { type: 'text', text: { body: 'Reservar para 4 el sábado' } }).body,
    );
    const list = await graph.waitFor(() =>
      graph.messages('7777', from.waId).find((m) => m.type === 'interactive'),
    );
    // Meta's interactive list message: type list, a body, a button (≤ 20) and sections of rows (id, title ≤ 24).
    const interactive = list.interactive as {
      type: string;
      body: { text: string };
      action: {
        button: string;
        sections: Array<{ title: string; rows: Array<{ id: string; title: string }> }>;
      };
    };
    expect(interactive.type).toBe('list');
    expect(interactive.body.text).toContain('1. 13:00–14:00');
    expect(Array.from(interactive.action.button).length).toBeLessThanOrEqual(20);
    const rows = interactive.action.sections.flatMap((s) => s.rows);
    expect(rows[3]).toEqual({ id: 'f:2026-11-28T20:00-21:00', title: '20:00–21:00' });
    await webhook(
      messageWebhook('7777', from, {
        type: 'interactive',
        interactive: { type: 'list_reply', list_reply: rows[3] },
      }).body,
    );
    const asked = await graph.waitFor(() =>
      graph
        .messages('7777', from.waId)
        .find(
          (m) => m.type === 'text' && String((m.text as { body: string }).body).includes('A nombre de quién'),
        ),
    );
    expect(String((asked.text as { body: string }).body)).toContain('20:00');
  });
});
