/**
 * The notification routes other than e-mail (issue 27 §1) through a running Charla: an owner who
 * linked their own Telegram to the bot, keeps the dashboard open and subscribed this browser to
 * Web Push gets a follower's request for a person on all three — a notice in their Telegram chat
 * with the dashboard link, a `notification` on the page's event stream, and an encrypted push with
 * the VAPID signature at the push service (a local HTTPS server standing in for it; decrypted here
 * to read `{ title, body, url, tag }`); a push service answering 410 removes the subscription; a
 * route turned off in the settings stays quiet; the hand-off names the bot's opening hours.
 */

import { execFileSync } from 'node:child_process';
import { createECDH, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error http_ece (web-push's own dependency) ships no types
import ece from 'http_ece';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { privateHost } from '../plugins/notifications/push.ts';
import { defaultConfig } from '../plugins/reservations/config.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { ownerWithBot, until, withInject } from './helpers/owners.ts';
import { openSseClient } from './helpers/sse-client.ts';
import { type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

/** A push service: records each POST, answers `status`. */
function startPushService(dir: string) {
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
  ], { stdio: 'ignore' }); // biome-ignore format: one command
  const received: Array<{ url: string; headers: Record<string, unknown>; body: Buffer }> = [];
  const state = { status: 201 };
  const server: Server = createServer(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(state.status).end();
      });
    },
  );
  return { server, received, state };
}

describe.each(dialectsOf(import.meta.url))('notification routes on %s', (kind) => {
  let app: TestApp;
  let telegram: FakeTelegram;
  let push: ReturnType<typeof startPushService>;
  let base: string;
  let pushBase: string;
  const vapid = webpush.generateVAPIDKeys();
  const browser = createECDH('prime256v1');
  browser.generateKeys();
  const authSecret = randomBytes(16);
  let owner: { id: string; token: string };
  let botId: string;
  let tgToken: string;
  const OWNER_CHAT = 9100;
  const auth = () => ({ authorization: `Bearer ${owner.token}` });
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    (await app.http()).inject({
      method,
      url,
      headers: auth(),
      ...(payload ? { payload: payload as object } : {}),
    });
  const sentTo = (chatId: number) =>
    telegram
      .callsOf(tgToken, 'sendMessage')
      .filter((c) => String(c.params.chat_id) === String(chatId))
      .map((c) => String(c.params.text));
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  beforeAll(async () => {
    // The stand-in push service's certificate is self-signed (this test process only).
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    push = startPushService(mkdtempSync(join(tmpdir(), 'charla-push-')));
    await new Promise<void>((r) => push.server.listen(0, '127.0.0.1', r));
    pushBase = `https://127.0.0.1:${(push.server.address() as AddressInfo).port}`;
    telegram = await startFakeTelegram();
    app = await createTestApp(kind, {
      llm: null,
      env: {
        TELEGRAM_API_ROOT: telegram.apiRoot,
        TELEGRAM_MODE: 'polling',
        CHARLA_VAPID_PUBLIC_KEY: vapid.publicKey,
        CHARLA_VAPID_PRIVATE_KEY: vapid.privateKey,
        CHARLA_VAPID_SUBJECT: 'mailto:ops@example.com',
        // The stand-in push service is on this machine (by default a private address is refused).
        CHARLA_PUSH_ALLOW_PRIVATE: 'on',
      },
    });
    await app.startChannels();
    const http = await app.http();
    if (!http.server.listening) await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    owner = await app.owner('alertas@example.com');
    const saved = await call('POST', '/api/save-chatbot', {
      business_name: 'El Pato Pepe',
      business_description: 'Restaurante familiar.',
      idioma: 'Español',
      enable_reservations: true,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    botId = (saved.json() as { id: string }).id;
    const tg = telegram.addBot('PatoAlertasBot');
    tgToken = tg.token;
    const connected = await call('POST', '/api/verify-telegram', {
      telegramToken: tg.token,
      telegramUsername: tg.username,
      chatbotId: botId,
    });
    expect(connected.statusCode, connected.body).toBe(200);
  });
  afterAll(async () => {
    delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    await app?.close();
    await telegram?.close();
    await new Promise<void>((r) => (push?.server ? push.server.close(() => r()) : r()));
  });

  it('tells the owner on their Telegram, the open dashboard and this browser; the settings show both routes work', async () => {
    const before = (await call('GET', '/api/notifications/settings')).json() as Record<string, unknown>;
    expect(before).toMatchObject({ telegramLinked: false, pushAvailable: true });
    // The owner links their own Telegram (the conversations plugin's deep link).
    const link = (await call('POST', `/api/conversations/${botId}/phone`)).json() as { url: string };
    const code = /start=(own-[\w-]+)$/.exec(link.url)![1]!;
    await telegram.sendText(tgToken, { id: OWNER_CHAT, username: 'pepe' }, `/start ${code}`);
    await telegram.waitFor(() => sentTo(OWNER_CHAT).length === 1);
    expect((await call('GET', '/api/notifications/settings')).json()).toMatchObject({ telegramLinked: true });

    expect((await call('GET', '/api/notifications/push/key')).json()).toEqual({ publicKey: vapid.publicKey });
    const subscription = {
      endpoint: `${pushBase}/push/abc123`,
      keys: { p256dh: browser.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') },
    };
    expect(
      (await call('POST', '/api/notifications/push/subscriptions', { endpoint: 'http://x/y' })).statusCode,
    ).toBe(400);
    const subscribed = await call('POST', '/api/notifications/push/subscriptions', subscription);
    expect(subscribed.statusCode, subscribed.body).toBe(204);

    const page = await openSseClient(`${base}/api/notifications/stream`, auth());
    await page.waitFor('ready');
    await telegram.sendText(tgToken, { id: 701, username: 'lucia' }, 'Hola, quiero hablar con una persona');
    // The follower is told; the owner's Telegram gets the notice with the link to the conversation.
    await telegram.waitFor(() => sentTo(701).length === 1);
    expect(sentTo(701)[0]).toContain('He avisado al equipo de El Pato Pepe');
    await until(
      () => sentTo(OWNER_CHAT).some((t) => t.startsWith('🔔 El Pato Pepe: un seguidor pide')),
      15_000,
      'the notice',
    );
    const notice = sentTo(OWNER_CHAT).find((t) => t.startsWith('🔔 El Pato Pepe: un seguidor pide'))!;
    expect(notice).toContain(
      'Un seguidor pide hablar con una persona: «Hola, quiero hablar con una persona»',
    );
    expect(notice).toContain(`/usuarios-conversaciones?chatbotId=${botId}&channel=telegram&userId=701`);
    // The open dashboard gets it live.
    const live = await page.waitFor(
      (e) => e.event === 'notification' && (e.data as { kind: string }).kind === 'asks_person',
    );
    expect(live.data).toMatchObject({
      kind: 'asks_person',
      chatbotId: botId,
      title: 'El Pato Pepe: un seguidor pide una persona',
      url: `/usuarios-conversaciones?chatbotId=${botId}&channel=telegram&userId=701`,
    });
    page.close();
    // The browser's push service got it encrypted for this browser, signed with the server's VAPID key.
    await until(() => push.received.length >= 2, 15_000, 'the pushes');
    const got = push.received.find((r) => {
      const body = ece.decrypt(r.body, { version: 'aes128gcm', privateKey: browser, authSecret });
      return (JSON.parse(body.toString('utf8')) as { title: string }).title.includes('una persona');
    })!;
    expect(got.url).toBe('/push/abc123');
    expect(String(got.headers.authorization)).toMatch(
      new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${vapid.publicKey}$`),
    );
    expect(got.headers['content-encoding']).toBe('aes128gcm');
    const payload = JSON.parse(
      ece.decrypt(got.body, { version: 'aes128gcm', privateKey: browser, authSecret }).toString('utf8'),
    );
    expect(payload).toEqual({
      title: 'El Pato Pepe: un seguidor pide una persona',
      body: 'Un seguidor pide hablar con una persona: «Hola, quiero hablar con una persona»',
      url: `/usuarios-conversaciones?chatbotId=${botId}&channel=telegram&userId=701`,
      tag: `conv:${botId}:telegram:701`,
    });
  });

  it('keeps a route the owner turned off quiet, and forgets a subscription the push service says is gone', async () => {
    const off = await call('PUT', '/api/notifications/settings', {
      events: { asks_person: { telegram: false } },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((off.json() as { events: Record<string, unknown> }).events.asks_person).toEqual({
      email: true,
      telegram: false,
      push: true,
      page: true,
    });
    expect(
      (await call('PUT', '/api/notifications/settings', { events: { new_conversation: { sms: true } } }))
        .statusCode,
    ).toBe(400);
    push.state.status = 410;
    const pushes = push.received.length;
    const notices = sentTo(OWNER_CHAT).filter((t) => t.startsWith('🔔')).length;
    await telegram.sendText(tgToken, { id: 702, username: 'marcos' }, 'Pásame con el encargado, por favor');
    await until(() => push.received.length > pushes, 15_000, 'a push');
    const rows = () =>
      app.store.db
        .selectFrom('notification_push_subscriptions' as never)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
    await until(async () => Number((await rows()).n) === 0, 15_000, 'the subscription deleted');
    await sleep(1_500);
    expect(sentTo(OWNER_CHAT).filter((t) => t.startsWith('🔔'))).toHaveLength(notices);
  });

  it('names the opening hours in the hand-off when the bot has a calendar', async () => {
    const open = { enabled: true, start: '13:00', end: '23:30', break_start: '16:30', break_end: '20:00' };
    const closed = { enabled: false, start: '10:00', end: '16:00', break_start: null, break_end: null };
    const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
    const put = await call('PUT', `/api/reservations/${botId}/config`, {
      ...defaultConfig(),
      working_hours: Object.fromEntries(days.map((d) => [d, d === 'monday' ? closed : open])),
    });
    expect(put.statusCode, put.body).toBe(200);
    await telegram.sendText(tgToken, { id: 703, username: 'ana' }, 'quiero hablar con una persona');
    await telegram.waitFor(() => sentTo(703).length === 1);
    expect(sentTo(703)[0]).toBe(
      'He avisado al equipo de El Pato Pepe: una persona te responderá aquí en cuanto pueda. Puedes seguir escribiendo tu consulta.\n' +
        'Horario: mar–dom 13:00–16:30, 20:00–23:30',
    );
  });
});

describe('push endpoints on the server’s own network', () => {
  it('are refused by default: the owner is told in their language and nothing is stored', async () => {
    expect(await privateHost('https://127.0.0.1:8443/push/a')).toBe(true);
    expect(await privateHost('https://10.1.2.3/push/a')).toBe(true);
    expect(await privateHost('https://[::1]/push/a')).toBe(true);
    expect(await privateHost('https://169.254.169.254/latest/meta-data')).toBe(true);
    expect(await privateHost('https://8.8.8.8/push/a')).toBe(false);
    const vapid = webpush.generateVAPIDKeys();
    const app = await withInject(
      await createTestApp('pglite', {
        llm: null,
        env: { CHARLA_VAPID_PUBLIC_KEY: vapid.publicKey, CHARLA_VAPID_PRIVATE_KEY: vapid.privateKey },
      }),
    );
    try {
      const { token } = await ownerWithBot(app, 'push-privado@example.com', { business_name: 'Casa Lola' });
      const res = await app.inject({
        method: 'POST',
        url: '/api/notifications/push/subscriptions',
        headers: { authorization: `Bearer ${token}`, 'x-app-language': 'en' },
        payload: {
          endpoint: 'https://169.254.169.254/latest/meta-data',
          keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) },
        },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: 'This browser gave a push address that is not public; try another browser.',
        code: 'pushEndpoint',
      });
      const stored = await sql`select 1 from notification_push_subscriptions`.execute(app.store.db);
      expect(stored.rows).toHaveLength(0);
    } finally {
      await app.close();
    }
  });
});
