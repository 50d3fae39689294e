/**
 * Losing PostgreSQL (issue 24 §1): a restart, a failover, an idle-connection reaper or a network
 * cut must not end Charla. Charla reaches PostgreSQL through a TCP proxy written for the test
 * (test/helpers/tcp-proxy.ts), so the test can both terminate its backends (`pg_terminate_backend`,
 * picked by the proxy's ports, so no other test file's connections are touched) and cut the network
 * (connections reset and refused, or accepted and never answered). Through each outage:
 *
 * - the process stays up (no uncaught exception, no unhandled rejection);
 * - requests get 200, or 503 with `Retry-After` while the database cannot be reached, never a 500
 *   or a hang; a streamed turn ends with an `error` event; `/readyz` says the database is down (and `/healthz`, liveness, stays 200);
 * - within 5 s of the database coming back the app serves turns again, and no turn is half-written
 *   (every stored follower message has its reply);
 * - the file-list and conversations streams opened before the cut stay open, say `resync`, and
 *   deliver events raised after it;
 * - a Telegram follower who wrote during the cut is answered once the database is back.
 *
 * The last test runs the real `charla serve` (what `npm start` runs) through the proxy.
 * PostgreSQL only: skipped when TEST_DATABASE_URL is unset.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../engine/logger.ts';
import { openStore, type Store } from '../engine/store/connect.ts';
import { migrateToLatest } from '../engine/store/migrate.ts';
import { createTestApp } from './helpers/app.ts';
import {
  bundleLikeNpmStart,
  type CharlaServer,
  charlaEnv,
  runCharla,
  serveCharla,
} from './helpers/charla-process.ts';
import { multipart } from './helpers/multipart.ts';
import { type App, enableWeb, ownerWithBot, until, withInject } from './helpers/owners.ts';
import { openSseClient, type SseClient } from './helpers/sse-client.ts';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.ts';
import { type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const PDF = readFileSync(new URL('../assets/demo/carta-el-pato-pepe.pdf', import.meta.url));

/** The same connection string with another database and/or through the proxy on `port`. */
function connectionString(url: string, change: { port?: number; database?: string }): string {
  const u = new URL(url);
  if (change.port) {
    u.hostname = '127.0.0.1';
    u.port = String(change.port);
  }
  if (change.database) u.pathname = `/${change.database}`;
  return u.toString();
}

/** The answer to one HTTP request, or how it failed. */
interface Answer {
  status: number | 'network-error' | 'timeout';
  retryAfter: string | null;
  body: string;
  ms: number;
}

/** A request that may not hang: it is given up after `timeoutMs` (and then reported as `timeout`). */
async function request(url: string, init: RequestInit = {}, timeoutMs = 15_000): Promise<Answer> {
  const started = Date.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const body = await res.text();
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body, ms: Date.now() - started };
  } catch (err) {
    const status = (err as Error).name === 'TimeoutError' ? 'timeout' : 'network-error';
    return { status, retryAfter: null, body: String(err), ms: Date.now() - started };
  }
}

/** Records uncaught exceptions and unhandled rejections: each would have ended a real process. */
function watchCrashes(): { crashes: string[]; stop: () => void } {
  const crashes: string[] = [];
  const onError = (err: unknown) =>
    crashes.push(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
  process.on('uncaughtException', onError);
  process.on('unhandledRejection', onError);
  return {
    crashes,
    stop() {
      process.off('uncaughtException', onError);
      process.off('unhandledRejection', onError);
    },
  };
}

describe.skipIf(!DATABASE_URL)('losing PostgreSQL', () => {
  const url = DATABASE_URL!;
  const schema = `${inject('pgSchemaPrefix')}cl_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client;
  let proxy: TcpProxy;
  let store: Store;
  let app: App;
  let base: string;
  let telegram: FakeTelegram;
  let tgToken: string;
  let owner: { id: string; token: string; botId: string };
  let files: SseClient;
  let conversations: SseClient;
  const watch = watchCrashes();
  const auth = () => ({ authorization: `Bearer ${owner.token}` });
  let turns = 0;

  /** One offline turn over HTTP (JSON), with its own message id (`id`). */
  const turn = async (visitorId: string, text = '¿A qué hora abrís?') => {
    const id = `cl-${visitorId}-${++turns}`;
    const answer = await request(`${base}/api/chatbot-message/${owner.botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userMessage: text, visitorId, messageId: id }),
    });
    return { ...answer, id };
  };
  const health = async () => {
    const a = await request(`${base}/readyz`);
    return { ...a, json: JSON.parse(a.body) as { status: string; failing?: string[] } };
  };
  /** Ends every backend behind the proxy (Charla's connections, and only those). */
  const terminateBackends = async (): Promise<number> => {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
        WHERE client_addr = '127.0.0.1' AND client_port = ANY($1::int[]) AND pid <> pg_backend_pid()`,
      [proxy.upstreamPorts()],
    );
    for (const { pid } of rows) await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    return rows.length;
  };
  const upload = async (name: string) => {
    const { body, contentType } = await multipart(
      { chatbotId: owner.botId },
      { field: 'file', name, data: PDF },
    );
    return request(`${base}/api/chatbot-files`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': contentType },
      body: new Uint8Array(body),
    });
  };
  /** Every 200 turn has both messages stored; every stored follower message of a turn has its reply. */
  const expectWholeTurns = async (answered: string[]) => {
    const rows = await app.store.db
      .selectFrom('conversation_messages')
      .select(['id', 'sender', 'message_id', 'reply_to'])
      .where('chatbot_id', '=', owner.botId)
      .execute();
    const users = rows.filter((r) => r.sender === 'user' && r.message_id?.startsWith('cl-'));
    const repliesTo = new Map<string, number>();
    for (const r of rows)
      if (r.sender === 'bot' && r.reply_to != null)
        repliesTo.set(String(r.reply_to), (repliesTo.get(String(r.reply_to)) ?? 0) + 1);
    for (const u of users) expect(repliesTo.get(String(u.id)), `reply to ${u.message_id}`).toBe(1);
    const stored = new Set(users.map((u) => u.message_id));
    for (const id of answered) expect(stored.has(id), `stored ${id}`).toBe(true);
  };

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const target = new URL(url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    store = await openStore({
      databaseUrl: connectionString(url, { port: proxy.port }),
      schema,
      poolSize: 5,
      applicationName: `charla-test-${schema}`,
      log: createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    });
    await migrateToLatest(store.db, undefined, schema);
    telegram = await startFakeTelegram();
    app = await withInject(
      await createTestApp('postgres', {
        store,
        llm: null,
        env: { TELEGRAM_API_ROOT: telegram.apiRoot, TELEGRAM_MODE: 'polling', CHARLA_RATE_LIMITS: 'off' },
      }),
    );
    await app.startChannels();
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    owner = await ownerWithBot(app, 'pepe@example.com', {
      business_name: 'El Pato Pepe',
      business_description: 'Restaurante familiar en Madrid. Abrimos de martes a domingo de 13:00 a 23:30.',
      idioma: 'Español',
    });
    // Followers chat with it by id: its web service on (issue 24 §2).
    await enableWeb(app.inject, owner.token, owner.botId);
    const tg = telegram.addBot('PatoPepeBot');
    tgToken = tg.token;
    const connected = await app.inject({
      method: 'POST',
      url: '/api/verify-telegram',
      headers: auth(),
      payload: { telegramToken: tg.token, telegramUsername: tg.username, chatbotId: owner.botId },
    });
    expect(connected.statusCode, connected.body).toBe(200);
    files = await openSseClient(`${base}/api/chatbot-files/events?chatbotId=${owner.botId}`, auth());
    conversations = await openSseClient(`${base}/api/conversations/${owner.botId}/events`, auth());
    await files.waitFor('ready');
    await conversations.waitFor('ready');
    expect(proxy.accepted()).toBeGreaterThan(0); // Charla really goes through the proxy
  }, 120_000);

  afterAll(async () => {
    files?.close();
    conversations?.close();
    await app?.close();
    await store?.close();
    await telegram?.close();
    await proxy?.close();
    await admin?.end();
    watch.stop();
  });

  it('stays up when every backend is terminated mid-traffic, refuses or serves each request, and serves turns again within 5 s', async () => {
    const answers: Array<Answer & { id: string }> = [];
    let stop = false;
    // Four followers writing at once, bounded in count and time.
    const traffic = Promise.all(
      [1, 2, 3, 4].map(async (w) => {
        for (let i = 0; i < 150 && !stop; i++) answers.push(await turn(`w${w}`));
      }),
    );
    await until(() => answers.filter((a) => a.status === 200).length >= 8, 15_000, 'traffic');
    const filesMark = files.events.length;
    const conversationsMark = conversations.events.length;

    const killed = await terminateBackends();
    const cutAt = Date.now();
    // The main pool, the ingest pool, the LISTEN connection and pg-boss's pool at least.
    expect(killed).toBeGreaterThanOrEqual(4);

    // Serving again within 5 s.
    const back = await until(
      async () => {
        const a = await turn('after-kill');
        return a.status === 200 ? Date.now() : null;
      },
      5_000,
      'a turn served after the cut',
    );
    expect(back - cutAt).toBeLessThan(5_000);
    stop = true;
    await traffic;
    // Each of these would have ended a real process (a pool's or a client's unhandled 'error').
    expect(watch.crashes).toEqual([]);

    // Every request was answered: 200, or 503 with Retry-After while its connection was lost.
    const statuses = new Set(answers.map((a) => a.status));
    for (const s of statuses) expect([200, 503]).toContain(s);
    for (const a of answers.filter((x) => x.status === 503)) expect(a.retryAfter).toBe('5');
    expect(answers.filter((a) => a.ms > 10_000)).toEqual([]);
    await expectWholeTurns(answers.filter((a) => a.status === 200).map((a) => a.id));

    // The streams opened before the cut say `resync`, then deliver events raised after it.
    await files.waitFor('resync', 5_000, filesMark);
    await conversations.waitFor('resync', 5_000, conversationsMark);
    expect((await upload('carta-tras-el-corte.pdf')).status).toBe(201);
    await files.waitFor(
      (e) => e.event === 'change' && (e.data as { op: string }).op === 'insert',
      5_000,
      filesMark,
    );
    expect((await turn('nuevo-tras-el-corte')).status).toBe(200);
    await conversations.waitFor(
      (e) => e.event === 'message' && (e.data as { userId: string }).userId === 'nuevo-tras-el-corte',
      5_000,
      conversationsMark,
    );
    expect((await health()).json).toMatchObject({ status: 'ready', checks: { db: true } });
    expect(watch.crashes).toEqual([]);
  }, 120_000);

  it('stays up through a network cut: 503 with Retry-After and /readyz down while cut, then back within 5 s', async () => {
    expect((await health()).status).toBe(200);
    const filesMark = files.events.length;
    const conversationsMark = conversations.events.length;
    const before = (await turn('antes-del-corte')).status;
    expect(before).toBe(200);

    // Connections reset, new ones refused.
    proxy.cut('refuse');
    const down = await health();
    expect(down.status).toBe(503);
    expect(down.json).toMatchObject({ status: 'unready', failing: expect.arrayContaining(['db']) });
    // Liveness: the process is up, restarting it would not bring the database back.
    expect((await request(`${base}/healthz`)).status).toBe(200);
    expect(watch.crashes).toEqual([]);
    const refused = await turn('durante-el-corte');
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBe('5');
    // The owner is not signed out by the outage: their screen gets a 503 to retry, not a 401.
    const ownerDuring = await request(`${base}/api/my-chatbot`, { headers: auth() });
    expect(ownerDuring.status).toBe(503);
    // A streamed turn ends (503 before the stream, or an `error` event in it), never hangs.
    const streamed = await request(
      `${base}/api/chatbot-message/${owner.botId}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ userMessage: 'hola', visitorId: 'streamed', messageId: 'cl-streamed-1' }),
      },
      10_000,
    );
    if (streamed.status === 200) expect(streamed.body).toMatch(/event: error\n/);
    else expect(streamed.status).toBe(503);
    // A Telegram follower writes while the database is away: the poller keeps the update.
    await telegram.sendText(tgToken, { id: 901, username: 'marta' }, '¿Tenéis mesa para dos?');
    // The owner's screens still have their streams open.
    expect(files.ended()).toBe(false);
    expect(conversations.ended()).toBe(false);
    await new Promise((r) => setTimeout(r, 1_500));

    // Accepted and never answered (a firewall dropping packets): requests still end, in about the
    // connect timeout (5 s), never hang.
    proxy.cut('blackhole');
    const silent = await health();
    expect(silent.status).toBe(503);
    expect(silent.ms).toBeLessThan(8_000);
    const silentTurn = await turn('durante-el-silencio');
    expect(silentTurn.status).toBe(503);
    expect(silentTurn.ms).toBeLessThan(8_000);

    proxy.restore();
    const restoredAt = Date.now();
    await until(async () => (await health()).status === 200, 5_000, '/readyz ok after the cut');
    await until(async () => (await turn('tras-el-corte')).status === 200, 5_000, 'a turn after the cut');
    expect(Date.now() - restoredAt).toBeLessThan(5_000);

    // The follower who wrote during the cut is answered, once.
    const replies = () =>
      telegram.callsOf(tgToken, 'sendMessage').filter((c) => String(c.params.chat_id) === '901');
    await telegram.waitFor(() => replies().length >= 1, 20_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(replies()).toHaveLength(1);

    // The streams come back (the LISTEN connection's backoff is at most 10 s) and carry new events.
    await files.waitFor('resync', 15_000, filesMark);
    await conversations.waitFor('resync', 15_000, conversationsMark);
    expect((await upload('menu-tras-el-corte.pdf')).status).toBe(201);
    await files.waitFor(
      (e) => e.event === 'change' && (e.data as { op: string }).op === 'insert',
      5_000,
      filesMark,
    );
    expect((await turn('otro-tras-el-corte')).status).toBe(200);
    await conversations.waitFor(
      (e) => e.event === 'message' && (e.data as { userId: string }).userId === 'otro-tras-el-corte',
      5_000,
      conversationsMark,
    );
    await expectWholeTurns([]);
    expect(watch.crashes).toEqual([]);
  }, 90_000);
});

describe.skipIf(!DATABASE_URL)('charla serve losing PostgreSQL', () => {
  const url = DATABASE_URL!;
  const database = `charla_cl_${randomBytes(4).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'charla-cl-'));
  let admin: pg.Client;
  let proxy: TcpProxy;
  let server: CharlaServer | undefined;
  let botId: string;
  let exited: string | null = null;

  // Limits off: the test polls one visitor until the server answers again (issue 24 review).
  const env = (databaseUrl: string) =>
    charlaEnv({ CHARLA_DATA_DIR: dataDir, DATABASE_URL: databaseUrl, CHARLA_RATE_LIMITS: 'off' });
  const turn = (visitorId: string) =>
    request(`${server!.url}/api/chatbot-message/${botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userMessage: '¿Qué horario tenéis?', visitorId }),
    });

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    const direct = connectionString(url, { database });
    await bundleLikeNpmStart();
    const migrate = runCharla(['migrate'], env(direct));
    expect(migrate.code, migrate.stderr).toBe(0);
    const seed = runCharla(['seed', '--demo', '--json'], env(direct));
    expect(seed.code, seed.stderr).toBe(0);
    botId = (JSON.parse(seed.stdout) as { botId: string }).botId;
    const target = new URL(url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    server = await serveCharla(env(connectionString(url, { port: proxy.port, database })));
    server.child.on('exit', (code, signal) => {
      exited = String(code ?? signal);
    });
  }, 180_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      const gone = new Promise((r) => server!.child.once('exit', r));
      server.child.kill('SIGTERM');
      await gone;
    }
    await proxy?.close();
    await admin?.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => {});
    await admin?.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps running when its backends are terminated and when the network is cut, and serves again within 5 s', async () => {
    expect((await turn('antes')).status).toBe(200);

    const { rows } = await admin.query<{ n: number }>(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [database],
    );
    expect(rows[0]!.n).toBeGreaterThanOrEqual(2);
    const killedAt = Date.now();
    await new Promise((r) => setTimeout(r, 500));
    expect(exited, server!.output()).toBeNull();
    await until(async () => (await turn('tras-matar')).status === 200, 5_000, 'a turn after the kill');
    expect(Date.now() - killedAt).toBeLessThan(5_000);
    expect(exited).toBeNull();

    proxy.cut('refuse');
    const down = await request(`${server!.url}/readyz`);
    expect(down.status).toBe(503);
    const refused = await turn('durante');
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBe('5');
    await new Promise((r) => setTimeout(r, 2_000));
    expect(exited).toBeNull();

    proxy.restore();
    const restoredAt = Date.now();
    await until(async () => (await request(`${server!.url}/readyz`)).status === 200, 5_000, '/readyz ok');
    await until(async () => (await turn('despues')).status === 200, 5_000, 'a turn after the cut');
    expect(Date.now() - restoredAt).toBeLessThan(5_000);
    // A little later (pg-boss's and the supervisor's timers have run against the lost connections).
    await new Promise((r) => setTimeout(r, 3_000));
    expect(exited, server!.output()).toBeNull();
    expect((await turn('al-final')).status).toBe(200);
  }, 90_000);
});
