/**
 * Long polling with two Charla nodes on one PostgreSQL database (issue 26 §2): Telegram serves one
 * `getUpdates` per bot at a time and ends the other with 409 (the fake Bot API does the same), so
 * only the node holding the bot's lease polls. Both nodes have the bot connected and answer through
 * it; followers' messages are answered once; when the polling node stops, the other takes over
 * within the lease and answers what came meanwhile. PGlite is one process: nothing to share.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../engine/store/connect.ts';
import { createTestApp, fakeLlm, type TestApp } from './helpers/app.ts';
import { twoStores } from './helpers/db.ts';
import { type FakeOpenAi, startFakeOpenAi } from './servers/openai.ts';
import { type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

const LEASE_MS = 1500;

/** Resolves once `check` is true, looking every 50 ms (up to 10 s). */
async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('Telegram long polling on two nodes', () => {
  let telegram: FakeTelegram;
  let openai: FakeOpenAi;
  let stores: [Store, Store];
  let nodes: TestApp[] = [];
  let bot: { token: string };
  const leaseHolder = async () =>
    (await stores[1].db.selectFrom('leases').select('holder').executeTakeFirst())?.holder;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    openai = await startFakeOpenAi();
    stores = await twoStores('postgres');
    const env = {
      TELEGRAM_API_ROOT: telegram.apiRoot,
      TELEGRAM_MODE: 'polling',
      TELEGRAM_POLL_TIMEOUT_S: '1',
      TELEGRAM_POLL_LEASE_MS: String(LEASE_MS),
    };
    nodes = await Promise.all(
      stores.map((store) =>
        createTestApp('postgres', { store, llm: fakeLlm(openai.baseURL), env, supervisorIntervalMs: 300 }),
      ),
    );
    const owner = await nodes[0]!.owner('dos-nodos@example.com');
    const expires = new Date(Date.now() + 30 * 86_400_000);
    await nodes[0]!.store.db
      .insertInto('user_profiles')
      .values({ user_id: owner.id, plan: 'free', expires_at: expires })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ expires_at: expires }))
      .execute();
    const http = await nodes[0]!.http();
    const saved = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { business_name: 'Dos Nodos', business_description: 'Bar de tapas.' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    bot = telegram.addBot('dos_nodos_bot');
    const verified = await http.inject({
      method: 'POST',
      url: '/api/verify-telegram',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: {
        telegramToken: bot.token,
        telegramUsername: 'dos_nodos_bot',
        chatbotId: (saved.json() as { id: string }).id,
      },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    // The first node polls (it holds the lease), then the second starts and waits on stand-by.
    await nodes[0]!.startChannels();
    await until(async () => Boolean(await leaseHolder()));
    await nodes[1]!.startChannels();
  });
  afterAll(async () => {
    for (const node of nodes) await node.close();
    for (const store of new Set(stores ?? [])) await store.close();
    await openai?.close();
    await telegram?.close();
  });

  it('polls from one node at a time, answers each message once, and moves when that node stops', async () => {
    await telegram.sendText(bot.token, { id: 71 }, 'hola');
    await telegram.waitFor(() => telegram.callsOf(bot.token, 'sendMessage').length === 1, 10_000);
    // Several poll rounds with both nodes running: never a second getUpdates at the same time.
    await new Promise((r) => setTimeout(r, 3 * LEASE_MS));
    const polls = telegram.callsOf(bot.token, 'getUpdates');
    expect(polls.length).toBeGreaterThan(2);
    expect(polls.filter((c) => c.failed === 409)).toEqual([]);

    // The polling node stops (a restart; a crash is the same once its lease runs out).
    const before = await leaseHolder();
    const [first, second] = nodes;
    const stoppedAt = Date.now();
    await first!.close();
    nodes = [second!];
    await telegram.sendText(bot.token, { id: 71 }, 'sigues ahí');
    await telegram.waitFor(
      () => telegram.callsOf(bot.token, 'sendMessage').length === 2,
      4 * LEASE_MS + 5000,
    );
    expect(Date.now() - stoppedAt).toBeLessThan(4 * LEASE_MS + 5000);
    expect(telegram.callsOf(bot.token, 'sendMessage').map((c) => c.params.text)).toEqual([
      'Respuesta: hola',
      'Respuesta: sigues ahí',
    ]);
    expect(telegram.callsOf(bot.token, 'getUpdates').filter((c) => c.failed === 409)).toEqual([]);
    const after = await leaseHolder();
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
  });
});

/**
 * `CHARLA_ROLE` (issue 26 §2): a web node answers HTTP but never polls Telegram (a worker does);
 * a worker serves only the operations routes; an owner's disconnect on the web node stops the
 * worker's poller at once (NOTIFY), not at the supervisor's next pass.
 */
describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('web and worker nodes (CHARLA_ROLE)', () => {
  let telegram: FakeTelegram;
  let openai: FakeOpenAi;
  let stores: [Store, Store];
  let web: TestApp;
  let worker: TestApp | undefined;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    openai = await startFakeOpenAi();
    stores = await twoStores('postgres');
    const env = {
      TELEGRAM_API_ROOT: telegram.apiRoot,
      TELEGRAM_MODE: 'polling',
      TELEGRAM_POLL_TIMEOUT_S: '1',
      TELEGRAM_POLL_LEASE_MS: String(LEASE_MS),
    };
    // The supervisor's own pass is slow (60 s): what happens sooner is the NOTIFY's doing.
    web = await createTestApp('postgres', {
      store: stores[0],
      llm: fakeLlm(openai.baseURL),
      env: { ...env, CHARLA_ROLE: 'web' },
      supervisorIntervalMs: 60_000,
    });
    worker = await createTestApp('postgres', {
      store: stores[1],
      llm: fakeLlm(openai.baseURL),
      env: { ...env, CHARLA_ROLE: 'worker' },
      supervisorIntervalMs: 60_000,
    });
  });
  afterAll(async () => {
    await web?.close();
    await worker?.close();
    for (const store of new Set(stores ?? [])) await store.close();
    await openai?.close();
    await telegram?.close();
  });

  it('polls only on the worker, answers once, serves the dashboard only on web, and disconnects everywhere at once', async () => {
    const owner = await web.owner('roles@example.com');
    const expires = new Date(Date.now() + 30 * 86_400_000);
    await web.store.db
      .insertInto('user_profiles')
      .values({ user_id: owner.id, plan: 'free', expires_at: expires })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ expires_at: expires }))
      .execute();
    const http = await web.http();
    const auth = { authorization: `Bearer ${owner.token}` };
    const saved = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: auth,
      payload: { business_name: 'Roles', business_description: 'Bar de tapas.' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const chatbotId = (saved.json() as { id: string }).id;
    const bot = telegram.addBot('roles_bot');
    await web.startChannels();
    const verified = await http.inject({
      method: 'POST',
      url: '/api/verify-telegram',
      headers: auth,
      payload: { telegramToken: bot.token, telegramUsername: 'roles_bot', chatbotId },
    });
    expect(verified.statusCode, verified.body).toBe(200);

    // Only the web node runs: it connected the bot (it can send) but never polls.
    await telegram.sendText(bot.token, { id: 72 }, 'hola');
    await new Promise((r) => setTimeout(r, 2 * LEASE_MS));
    expect(telegram.callsOf(bot.token, 'getUpdates')).toEqual([]);
    // A worker starts: it polls and the waiting message is answered, once.
    await worker!.startChannels();
    await telegram.waitFor(() => telegram.callsOf(bot.token, 'sendMessage').length === 1, 10_000);
    expect(telegram.callsOf(bot.token, 'sendMessage').map((c) => c.params.text)).toEqual(['Respuesta: hola']);

    // The worker serves the probes, not the product.
    const workerHttp = await worker!.http();
    expect((await workerHttp.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect((await workerHttp.inject({ method: 'GET', url: '/login' })).statusCode).toBe(404);
    const refused = await workerHttp.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: auth,
      payload: { business_name: 'No' },
    });
    expect(refused.statusCode).toBe(404);

    // Disconnected on the web node: the worker stops polling within a second.
    const removed = await http.inject({
      method: 'POST',
      url: '/api/remove-telegram',
      headers: auth,
      payload: { chatbotId },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    await new Promise((r) => setTimeout(r, 1000 + 1000 * 1.2)); // a poll in flight ends (1 s timeout)
    const polls = telegram.callsOf(bot.token, 'getUpdates').length;
    await new Promise((r) => setTimeout(r, 2000));
    expect(telegram.callsOf(bot.token, 'getUpdates').length).toBe(polls);
  });
});
