/**
 * Web Push to IALanding visitors (issue 28 §2), through a running Charla on PGlite: a visitor who
 * wrote on the IALanding and subscribed their browser gets the owner's reply as an encrypted push
 * with the VAPID signature at the push service (a local HTTPS server standing in for it; decrypted
 * here to read `{ title, body, url, tag }`); a push service answering 410 removes the subscription;
 * an endpoint on a private address is refused without `CHARLA_PUSH_ALLOW_PRIVATE=on`; an unknown
 * web key is 404; without VAPID keys the key route says null.
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
import { createTestApp, type TestApp } from './helpers/app.ts';
import { until } from './helpers/owners.ts';

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

const vapid = webpush.generateVAPIDKeys();

/** An owner with a bot, its web key on and its IALanding; `call` with or without the owner's session. */
async function landingBot(app: TestApp, email: string) {
  const owner = await app.owner(email);
  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, auth = true) =>
    (await app.http()).inject({
      method,
      url,
      ...(auth ? { headers: { authorization: `Bearer ${owner.token}` } } : {}),
      ...(payload ? { payload } : {}),
    });
  const saved = await call('POST', '/api/save-chatbot', {
    business_name: 'Pastelería Lola',
    business_description: 'Tartas por encargo en Sevilla.',
    idioma: 'Español',
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const botId = (saved.json() as { id: string }).id;
  const key = (await call('POST', '/api/charla-web/key', { chatbotId: botId })).json().charla_key as string;
  expect((await call('POST', '/api/charla-web/toggle', { chatbotId: botId, enabled: true })).statusCode).toBe(
    200,
  );
  const landing = await call('POST', '/api/charla-web/ialanding', { chatbotId: botId, key });
  expect(landing.statusCode, landing.body).toBe(200);
  return { call, botId, key, slug: (landing.json() as { slug: string }).slug };
}

describe('IALanding visitors’ Web Push', () => {
  let app: TestApp;
  let push: ReturnType<typeof startPushService>;
  let pushBase: string;
  const browser = createECDH('prime256v1');
  browser.generateKeys();
  const authSecret = randomBytes(16);
  const keys = {
    p256dh: browser.getPublicKey().toString('base64url'),
    auth: authSecret.toString('base64url'),
  };

  beforeAll(async () => {
    // The stand-in push service's certificate is self-signed (this test process only).
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    push = startPushService(mkdtempSync(join(tmpdir(), 'charla-visitor-push-')));
    await new Promise<void>((r) => push.server.listen(0, '127.0.0.1', r));
    pushBase = `https://127.0.0.1:${(push.server.address() as AddressInfo).port}`;
    app = await createTestApp('pglite', {
      llm: null,
      env: {
        CHARLA_VAPID_PUBLIC_KEY: vapid.publicKey,
        CHARLA_VAPID_PRIVATE_KEY: vapid.privateKey,
        CHARLA_VAPID_SUBJECT: 'mailto:ops@example.com',
        // The stand-in push service is on this machine (by default a private address is refused).
        CHARLA_PUSH_ALLOW_PRIVATE: 'on',
      },
    });
    await app.startChannels();
  });
  afterAll(async () => {
    delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    await app?.close();
    await new Promise<void>((r) => (push?.server ? push.server.close(() => r()) : r()));
  });

  const subscriptions = async () =>
    (
      await sql<{ n: number }>`SELECT count(*)::int AS n FROM web_visitor_push_subscriptions`.execute(
        app.store.db,
      )
    ).rows[0]!.n;

  it('pushes the owner’s reply to the subscribed visitor’s browser; a 410 removes the subscription', async () => {
    const { call, botId, key, slug } = await landingBot(app, 'lola@example.com');
    expect((await call('GET', `/api/web/${key}/push/key`, undefined, false)).json()).toEqual({
      publicKey: vapid.publicKey,
    });
    expect((await call('GET', '/api/web/no-existe/push/key', undefined, false)).statusCode).toBe(404);

    const visitorId = 'visitante-push-1';
    const said = await call(
      'POST',
      `/api/web/${key}/message`,
      { userMessage: '¿Hacéis tartas sin gluten?', visitorId, channel: 'ialanding' },
      false,
    );
    expect(said.statusCode, said.body).toBe(200);
    const endpoint = `${pushBase}/push/visitor-1`;
    const sub = await call(
      'POST',
      `/api/web/${key}/push/subscriptions`,
      { visitorId, endpoint, keys },
      false,
    );
    expect(sub.statusCode, sub.body).toBe(204);
    // Malformed and unknown-key subscriptions are refused.
    expect(
      (await call('POST', `/api/web/${key}/push/subscriptions`, { visitorId, endpoint: 'nope', keys }, false))
        .statusCode,
    ).toBe(400);
    expect(
      (await call('POST', '/api/web/no-existe/push/subscriptions', { visitorId, endpoint, keys }, false))
        .statusCode,
    ).toBe(404);
    // The visitor's own turn (they are on the page) sends no push.
    expect(push.received).toHaveLength(0);

    const reply = await call('POST', `/api/conversations/${botId}/reply`, {
      channel: 'ialanding',
      userId: visitorId,
      text: 'Sí, por encargo con 48 h.',
    });
    expect(reply.statusCode, reply.body).toBe(200);
    await until(() => push.received.length === 1, 20_000);
    const got = push.received[0]!;
    expect(got.url).toBe('/push/visitor-1');
    expect(String(got.headers.authorization)).toMatch(/^vapid t=.+, k=/);
    const clear = ece.decrypt(got.body, { version: 'aes128gcm', privateKey: browser, authSecret });
    expect(JSON.parse(clear.toString('utf8'))).toEqual({
      title: 'Pastelería Lola',
      body: 'Sí, por encargo con 48 h.',
      url: `/ialanding/${encodeURIComponent(slug)}`,
      tag: `charla-${botId}`,
    });

    // The browser's subscription is gone at the push service: 410 deletes it, and nothing more is sent.
    push.state.status = 410;
    await call('POST', `/api/conversations/${botId}/reply`, {
      channel: 'ialanding',
      userId: visitorId,
      text: '¿Te la preparamos?',
    });
    await until(() => push.received.length === 2, 20_000);
    await until(async () => (await subscriptions()) === 0, 10_000);
    push.state.status = 201;
    await call('POST', `/api/conversations/${botId}/reply`, {
      channel: 'ialanding',
      userId: visitorId,
      text: 'Hola',
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(push.received).toHaveLength(2);

    // Unsubscribing: a new subscription, then DELETE removes it.
    await call('POST', `/api/web/${key}/push/subscriptions`, { visitorId, endpoint, keys }, false);
    expect(await subscriptions()).toBe(1);
    const off = await call('DELETE', `/api/web/${key}/push/subscriptions`, { endpoint }, false);
    expect(off.statusCode).toBe(204);
    expect(await subscriptions()).toBe(0);
  });
});

describe('IALanding visitors’ Web Push without the private-address flag or keys', () => {
  let app: TestApp;
  afterAll(async () => {
    await app?.close();
  });

  it('refuses an endpoint on a private address (400) and stores nothing', async () => {
    app = await createTestApp('pglite', {
      llm: null,
      env: { CHARLA_VAPID_PUBLIC_KEY: vapid.publicKey, CHARLA_VAPID_PRIVATE_KEY: vapid.privateKey },
    });
    const { call, key } = await landingBot(app, 'privada@example.com');
    const keys = { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) };
    for (const endpoint of [
      'https://127.0.0.1:8443/push/x',
      'https://192.168.1.20/push/x',
      'https://[::1]/p',
    ]) {
      const res = await call(
        'POST',
        `/api/web/${key}/push/subscriptions`,
        { visitorId: 'v', endpoint, keys },
        false,
      );
      expect(res.statusCode, endpoint).toBe(400);
    }
    const n = await sql<{ n: number }>`SELECT count(*)::int AS n FROM web_visitor_push_subscriptions`.execute(
      app.store.db,
    );
    expect(n.rows[0]!.n).toBe(0);
  });

  it('says there is no key when the operator set none', async () => {
    await app.close();
    app = await createTestApp('pglite', { llm: null });
    const { call, key } = await landingBot(app, 'sinclaves@example.com');
    expect((await call('GET', `/api/web/${key}/push/key`, undefined, false)).json()).toEqual({
      publicKey: null,
    });
  });
});
