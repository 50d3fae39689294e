/**
 * Issue 27 §4.2, followers named by what the channel knows, in the inbox's list
 * (`GET /api/conversations/:chatbotId`), on PGlite (and PostgreSQL when TEST_DATABASE_URL is set):
 * a Telegram follower by their first name with their @username beside it (Bot API emulator); a
 * WhatsApp Cloud follower by their profile name with their number (a signed webhook to the local
 * Graph API server); a web visitor by the name they gave when booking a table in the chat (the
 * offline booking dialogue, through the reservations plugin's registry event); a nameless web
 * visitor as "Visitante web n". The search finds them by those names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../plugins/reservations/config.ts';
import { createTestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { type App, enableWeb, ownerWithBot, until, withInject } from './helpers/owners.ts';
import { type FakeGraph, hubSignature, messageWebhook, startFakeGraph } from './servers/graph.ts';
import { type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

const APP_SECRET = 'meta-app-secret-for-names';

interface Follower {
  channel: string;
  userId: string;
  name: string | null;
  handle: string | null;
  visitorNo: number | null;
}

describe.each(dialectsOf(import.meta.url))('followers named by what the channel knows on %s', (kind) => {
  const clock = new Date('2026-11-23T09:00:00Z');
  let telegram: FakeTelegram;
  let graph: FakeGraph;
  let app: App;
  let owner: Awaited<ReturnType<typeof ownerWithBot>>;
  let key: string;
  const headers = () => ({ authorization: `Bearer ${owner.token}` });
  const list = async (q = '') => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/conversations/${owner.botId}${q ? `?q=${encodeURIComponent(q)}` : ''}`,
      headers: headers(),
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { followers: Follower[] }).followers;
  };
  const say = async (visitorId: string, userMessage: string, messageId: string) => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/web/${key}/message`,
      payload: { userMessage, visitorId, messageId },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { reply: string };
  };

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    graph = await startFakeGraph();
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
          WHATSAPP_VERIFY_TOKEN: 'token-de-verificacion',
        },
        supervisorIntervalMs: 200,
      }),
    );
    await app.startChannels();
    owner = await ownerWithBot(app, 'nombres@example.com', {
      business_name: 'Casa Lola',
      idioma: 'Español',
      enable_reservations: true,
    });
    key = (
      (
        await app.inject({
          method: 'POST',
          url: '/api/charla-web/key',
          headers: headers(),
          payload: { chatbotId: owner.botId },
        })
      ).json() as { charla_key: string }
    ).charla_key;
    await enableWeb(app.inject, owner.token, owner.botId);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await telegram?.close();
    await graph?.close();
  });

  it('names a Telegram follower by first name with their @username', async () => {
    const tg = telegram.addBot('CasaLolaBot');
    const connected = await app.inject({
      method: 'POST',
      url: '/api/verify-telegram',
      headers: headers(),
      payload: { telegramToken: tg.token, telegramUsername: tg.username, chatbotId: owner.botId },
    });
    expect(connected.statusCode, connected.body).toBe(200);
    await telegram.sendText(tg.token, { id: 4242, first_name: 'Lucía', username: 'lucia_m' }, '¿Abrís hoy?');
    await telegram.waitFor(() => telegram.callsOf(tg.token, 'sendMessage').length >= 1);
    const lucia = await until(async () => (await list()).find((f) => f.userId === '4242'));
    expect(lucia).toMatchObject({ channel: 'telegram', name: 'Lucía', handle: '@lucia_m' });
    expect((await list('lucia_m')).map((f) => f.userId)).toEqual(['4242']);
  });

  it('names a WhatsApp follower by profile name with their number', async () => {
    const token = 'EAAtoken5599xxxxxxxxxxxxxxxxxxxxxxxx';
    graph.addNumber({
      id: '5599',
      display_phone_number: '+34 655 000 999',
      verified_name: 'Casa',
      tokens: [token],
    });
    const res = await app.inject({
      method: 'POST',
      url: '/api/connect-whatsapp-cloud',
      headers: headers(),
      payload: {
        chatbotId: owner.botId,
        phoneNumberId: '5599',
        businessAccountId: '7000',
        accessToken: token,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const hello = messageWebhook(
      '5599',
      { waId: '34600111222', name: 'Marta Ruiz' },
      { type: 'text', text: { body: 'Hola, ¿hacéis envíos?' } },
    );
    const raw = JSON.stringify(hello.body);
    await until(
      async () => {
        const posted = await app.inject({
          method: 'POST',
          url: '/channels/whatsapp',
          headers: {
            'content-type': 'application/json',
            'x-hub-signature-256': hubSignature(raw, APP_SECRET),
          },
          payload: raw,
        });
        return posted.statusCode === 200;
      },
      10_000,
      'the webhook accepted',
    );
    const marta = await until(async () => (await list()).find((f) => f.userId === '34600111222'), 15_000);
    expect(marta).toMatchObject({ channel: 'whatsapp', name: 'Marta Ruiz', handle: '+34600111222' });
    expect((await list('Marta')).map((f) => f.userId)).toEqual(['34600111222']);
  });

  it('names a web visitor by the name given in a booking, and a nameless one "Visitante web n"', async () => {
    await say('web-sin-nombre', 'Hola', 'n-0');
    const open = { enabled: true, start: '13:00', end: '23:30', break_start: '16:30', break_end: '20:00' };
    const put = await app.inject({
      method: 'PUT',
      url: `/api/reservations/${owner.botId}/config`,
      headers: headers(),
      payload: {
        ...defaultConfig(),
        working_hours: Object.fromEntries(
          ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
            d,
            open,
          ]),
        ),
        require_name: true,
        require_phone: true,
        require_group_size: true,
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    const first = await say('web-ana', 'Hola, quiero reservar una mesa para 4 el sábado', 'r-1');
    expect(first.reply).toContain('2. 14:00–15:00');
    await say('web-ana', '2', 'r-2');
    await say('web-ana', 'Ana García', 'r-3');
    const done = await say('web-ana', '600 123 456', 'r-4');
    expect(done.reply).toMatch(/código es [A-Z0-9]{6}/);

    const followers = await list();
    expect(followers.find((f) => f.userId === 'web-ana')).toMatchObject({ name: 'Ana García', handle: null });
    expect(followers.find((f) => f.userId === 'web-sin-nombre')).toMatchObject({
      name: null,
      handle: null,
      visitorNo: 1,
    });
    expect((await list('García')).map((f) => f.userId)).toEqual(['web-ana']);
  });
});
