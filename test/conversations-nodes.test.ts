/**
 * Taking over across processes (issue 25: the conversations middleware reads the paused followers
 * from a per-bot cache): two Charla instances share one database; once the first has answered a
 * follower (its cache holds "not paused"), the owner takes over on the other instance, and the first
 * stays silent for that follower (PostgreSQL NOTIFY forgets its cache), then answers again after the
 * owner resumes on the other one. On PostgreSQL each instance has its own pool and LISTEN
 * connection; PGlite is one process, so the two share its store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../engine/store/connect.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf, twoStores } from './helpers/db.ts';

describe.each(dialectsOf(import.meta.url))('a takeover reaches every instance on %s', (kind) => {
  let stores: [Store, Store];
  let first: TestApp;
  let second: TestApp;
  let owner: { token: string };
  let botId: string;
  let n = 0;
  const say = (text: string) =>
    first.engine.handleTurn({
      chatbotId: botId,
      channel: 'telegram',
      follower: { id: '4242' },
      text,
      messageId: `4242:${++n}`,
    });
  const takeover = async (paused: boolean) => {
    const res = await (await second.http()).inject({
      method: 'POST',
      url: `/api/conversations/${botId}/takeover`,
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { channel: 'telegram', userId: '4242', paused },
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    stores = await twoStores(kind);
    first = await createTestApp(kind, { store: stores[0], llm: null });
    second = await createTestApp(kind, { store: stores[1], llm: null });
    owner = await second.owner('nodos@example.com');
    const saved = await (await second.http()).inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: {
        business_name: 'Dos Nodos',
        business_description: 'Cafetería en Sevilla. Abrimos de lunes a sábado de 8:00 a 20:00.',
        idioma: 'Español',
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    botId = (saved.json() as { id: string }).id;
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await stores?.[0].close();
    if (stores?.[1] !== stores?.[0]) await stores?.[1].close();
  });

  it('silences the follower on the other instance, then lets it answer after the resume', async () => {
    const before = await say('¿A qué hora abrís?');
    expect(before.silent).toBe(false);
    expect(before.reply).not.toBe('');

    await takeover(true);
    // The notification crosses within milliseconds; the follower's next message is not answered.
    await expect.poll(async () => (await say('¿Y los domingos?')).silent, { timeout: 3_000 }).toBe(true);
    expect(await say('¿Hola?')).toMatchObject({ silent: true, reply: '' });

    await takeover(false);
    await expect.poll(async () => (await say('¿Seguís ahí?')).silent, { timeout: 3_000 }).toBe(false);
  });
});
