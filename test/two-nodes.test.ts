/**
 * Two nodes (issue 26): two real `charla serve` processes, run as `npm start` runs them, on one
 * PostgreSQL database, one S3-compatible bucket (s3rver) and one CHARLA_SECRET, behind one address
 * (a TCP balancer, test/helpers/balancer.ts: the `PUBLIC_URL` Telegram's webhook and file links
 * point at). Requests alternate between them; what a user would notice:
 *
 * 1. a file uploaded on A is served by B with the same bytes; deleted on A, B answers 404;
 * 2. an owner's live conversations stream opened on A shows a follower's message that reached B
 *    within 1 s;
 * 3. a rate limit counts across both: 9 alternating turns of one visitor with a limit of 5 a
 *    minute admit exactly 5;
 * 4. a reservation reminder due while both run is sent once;
 * 5. SIGTERM on A with 20 turns in flight (10 web chats answered in the request, 10 Telegram
 *    messages in its inbox) loses none: each web chat gets its answer, each Telegram message is
 *    answered once (by A, or after A exits by B), and A exits 0;
 * 6. SIGKILL on A in the middle of a broadcast it is sending (killed the moment Telegram receives
 *    its 15th message): B finishes it, and every follower gets the message exactly once.
 *
 * The processes start once for the file. Two waits make most of its ~90 s: the reminder is due at
 * a whole minute (working hours are minutes), and B takes over the killed node's broadcast job only
 * when its 30 s lease has run out and a lease check (every 15 s) has seen it (engine/jobs).
 *
 * PostgreSQL only (one database for two processes): skipped when TEST_DATABASE_URL is unset.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BroadcastsAnswer } from '../plugins/broadcasts/api.ts';
import { defaultConfig, type ReservationConfig, timeZones } from '../plugins/reservations/config.ts';
import { type Balancer, startBalancer } from './helpers/balancer.ts';
import {
  BIN,
  bundleLikeNpmStart,
  type CharlaServer,
  charlaEnv,
  serveCharla,
} from './helpers/charla-process.ts';
import { multipart } from './helpers/multipart.ts';
import { until } from './helpers/owners.ts';
import { openSseClient } from './helpers/sse-client.ts';
import { type FakeOpenAi, startFakeOpenAi } from './servers/openai.ts';
import { type BotCall, type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const SECRET = 'two-nodes-test-secret-of-32-chars!!';
const BUCKET = 'charla-two-nodes';
const PDF = readFileSync(new URL('../assets/demo/carta-el-pato-pepe.pdf', import.meta.url));
/** Turns of one visitor a minute (CHARLA_LIMIT_TURN_VISITOR) for scenario 3. */
const VISITOR_LIMIT = 5;
/** Telegram followers who registered with /start before scenario 6's broadcast. */
const FOLLOWERS = 40;

/** The part of s3rver's API used here (the package ships no types). */
interface S3rver {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  configureBuckets: Array<{ name: string }>;
}) => S3rver;

/** Local date (YYYY-MM-DD) and time (HH:mm) of `at` in the time zone `zone`. */
function local(at: Date, zone: string): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/** `HH:mm` plus `minutes` (at most 24:00). */
function plusMinutes(time: string, minutes: number): string {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const total = Math.min(24 * 60, h * 60 + m + minutes);
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

/**
 * Runs one `charla` command to its end without blocking this process (s3rver and the fakes answer
 * from here: runCharla's spawnSync would stall them): exit code, stdout and stderr.
 */
async function runCharla(args: string[], env: NodeJS.ProcessEnv) {
  const res = await promisify(execFile)(process.execPath, [BIN, ...args], { env, timeout: 60_000 }).catch(
    (err: { code?: number; stdout?: string; stderr?: string }) => ({
      stdout: err.stdout ?? '',
      stderr: `${err.stderr ?? ''}\n${String(err)}`,
      code: err.code ?? 1,
    }),
  );
  if (res.stderr.includes('running them through tsx'))
    throw new Error(`charla ran the sources:\n${res.stderr}`);
  return { code: 'code' in res ? res.code : 0, stdout: res.stdout, stderr: res.stderr };
}

/** Waits until the child has exited; its exit code (null after a signal). */
function exitOf(server: CharlaServer): Promise<number | null> {
  if (server.child.exitCode !== null || server.child.signalCode !== null)
    return Promise.resolve(server.child.exitCode);
  return new Promise((resolve) => server.child.once('exit', (code) => resolve(code)));
}

describe.skipIf(!DATABASE_URL)('two charla serve nodes on one database and one bucket', () => {
  const database = `charla_2n_${randomBytes(4).toString('hex')}`;
  const dir = mkdtempSync(join(tmpdir(), 'charla-two-nodes-'));
  let admin: pg.Client;
  let s3: S3rver;
  let s3Endpoint: string;
  let telegram: FakeTelegram;
  let openai: FakeOpenAi;
  let balancer: Balancer;
  let a: CharlaServer;
  let b: CharlaServer;
  const started: CharlaServer[] = [];
  let auth: { authorization: string };
  let botId: string;
  let tg: { token: string };
  /** The slot the booking follower's model picks (scenario 4). */
  let slotId = '';
  /** When that slot's 2 h reminder is due (ms since the epoch). */
  let reminderDue = 0;
  let bookingCode = '';
  let restarts = 0;

  const dbUrl = () => {
    const u = new URL(DATABASE_URL!);
    u.pathname = `/${database}`;
    return u.toString();
  };
  const env = (node: string) =>
    charlaEnv({
      CHARLA_DATA_DIR: join(dir, node),
      DATABASE_URL: dbUrl(),
      CHARLA_SECRET: SECRET,
      S3_ENDPOINT: s3Endpoint,
      S3_BUCKET: BUCKET,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      OPENAI_BASE_URL: openai.baseURL,
      OPENAI_API_KEY: 'x',
      TELEGRAM_API_ROOT: telegram.apiRoot,
      TELEGRAM_MODE: 'webhook',
      PUBLIC_URL: balancer.url,
      // A stopped node's unanswered Telegram updates are taken over by the other within 2 s.
      CHARLA_INBOX_LEASE_MS: '2000',
      CHARLA_LIMIT_TURN_VISITOR: `${VISITOR_LIMIT}/1m`,
    });
  const portOf = (server: CharlaServer) => Number(new URL(server.url).port);
  const serve = async (node: string) => {
    const server = await serveCharla(env(`${node}-${restarts++}`));
    started.push(server);
    return server;
  };
  /** Resolves once `server` has the bot's Telegram webhook connected (401 for a missing secret, not 503). */
  const telegramConnected = (server: CharlaServer) =>
    until(
      async () =>
        (
          await fetch(`${server.url}/channels/telegram/${botId}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ update_id: 1 }),
          }).catch(() => null)
        )?.status === 401,
      30_000,
      `Telegram connected on ${server.url}`,
    ).catch((err: Error) => {
      throw new Error(
        `${err.message}; exit ${server.child.exitCode}; output:\n${server.output().slice(-3000)}`,
      );
    });
  /** A web chat turn of `visitorId` on `server`: status and reply. */
  const chat = async (server: CharlaServer, visitorId: string, userMessage: string, messageId: string) => {
    const res = await fetch(`${server.url}/api/chatbot-message/${botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userMessage, visitorId, messageId }),
    });
    return { status: res.status, body: (await res.json()) as { reply?: string } };
  };
  /** A Telegram follower's text, posted to the webhook behind the balancer; the webhook's status. */
  const say = async (chatId: number, text: string) => {
    const update = {
      update_id: telegram.nextUpdateId(),
      message: {
        message_id: Math.floor(Math.random() * 1e9),
        date: Math.floor(Date.now() / 1000),
        chat: { id: chatId, type: 'private', first_name: `Seguidor ${chatId}` },
        from: { id: chatId, is_bot: false, first_name: `Seguidor ${chatId}` },
        text,
        ...(text.startsWith('/')
          ? { entities: [{ type: 'bot_command', offset: 0, length: text.split(' ')[0]!.length }] }
          : {}),
      },
    };
    return (await telegram.deliver(tg.token, update))?.status;
  };
  const sent = (filter: (c: BotCall) => boolean = () => true) =>
    telegram.callsOf(tg.token, 'sendMessage').filter((c) => !c.failed && filter(c));

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: join(dir, 's3rver'),
      configureBuckets: [{ name: BUCKET }],
    });
    s3Endpoint = `http://127.0.0.1:${(await s3.run()).port}`;
    telegram = await startFakeTelegram();
    openai = await startFakeOpenAi({
      reply: (req) => {
        const last = req.messages.at(-1);
        if (last?.role === 'tool') {
          const result = JSON.parse(last.content) as { code?: string };
          return { text: `Hecho, código ${result.code}.` };
        }
        const user = String(req.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
        if (user.includes('Mesa para 2'))
          return {
            text: '',
            toolCalls: [
              {
                name: 'reservations_hold',
                arguments: {
                  slot_id: slotId,
                  customer_name: 'Marta',
                  phone: '+34 611 222 333',
                  party_size: 2,
                },
              },
            ],
          };
        // Scenario 5: ~1.5 s per answer, in flight when the signal comes.
        if (user.includes('lento'))
          return { text: `Respuesta: ${user}`, chunks: ['Respuesta: ', user], chunkDelayMs: 750 };
        return { text: `Respuesta: ${user}` };
      },
    });
    balancer = await startBalancer([]);
    await bundleLikeNpmStart();
    // `seed` migrates the empty database first, as every command that opens the app does.
    const seed = await runCharla(['seed', '--demo', '--json'], env('setup'));
    expect(seed.code, seed.stderr).toBe(0);
    botId = (JSON.parse(seed.stdout) as { botId: string }).botId;
    const token = await runCharla(['owners', 'token', 'demo@charla.local'], env('setup'));
    expect(token.code, token.stderr).toBe(0);
    auth = { authorization: `Bearer ${token.stdout.trim().split('\n').at(-1)!.trim()}` };

    [a, b] = await Promise.all([serve('a'), serve('b')]);
    balancer.setTargets([portOf(a), portOf(b)]);

    tg = telegram.addBot('dos_nodos_bot');
    const verified = await fetch(`${a.url}/api/verify-telegram`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ chatbotId: botId, telegramToken: tg.token, telegramUsername: 'dos_nodos_bot' }),
    });
    expect(verified.status, await verified.clone().text()).toBe(200);
    await Promise.all([telegramConnected(a), telegramConnected(b)]);
    expect(telegram.webhookOf(tg.token)?.url).toBe(`${balancer.url}/channels/telegram/${botId}`);

    // Scenario 4's booking: a slot starting at the first whole minute 2 h + 8 s from now (working
    // hours are whole minutes), so its 2 h reminder is due 8 to 68 s from now, while both nodes run
    // scenarios 1 to 4. The booking itself takes about a second.
    const start = new Date(Math.ceil((Date.now() + 2 * 3_600_000 + 8_000) / 60_000) * 60_000);
    reminderDue = start.getTime() - 2 * 3_600_000;
    // The calendar's zone: one where a 30-minute slot from then still ends by midnight.
    const zone = timeZones().find((z: string) => local(start, z).time <= '23:30')!;
    const at = local(start, zone);
    const hours = { enabled: true, start: at.time, end: plusMinutes(at.time, 30) };
    const config: ReservationConfig = {
      ...defaultConfig(),
      timezone: zone,
      working_hours: Object.fromEntries(
        Object.keys(defaultConfig().working_hours).map((d) => [
          d,
          { ...hours, break_start: null, break_end: null },
        ]),
      ) as ReservationConfig['working_hours'],
      slot_minutes: 30,
    };
    const put = await fetch(`${b.url}/api/reservations/${botId}/config`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(config),
    });
    expect(put.status, await put.clone().text()).toBe(200);
    slotId = `${at.date}T${hours.start}-${hours.end}`;
    expect(await say(4242, `Mesa para 2 a las ${at.time}`)).toBe(200);
    const confirmed = await until(
      () => sent((c) => String(c.params.chat_id) === '4242' && /código/.test(String(c.params.text)))[0],
      15_000,
      'the booking confirmation',
    );
    bookingCode = /código ([A-Z0-9]{6})/.exec(String(confirmed.params.text))?.[1] ?? '';
    expect(bookingCode, String(confirmed.params.text)).toMatch(/^[A-Z0-9]{6}$/);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(
      started
        .filter((s) => s.child.exitCode === null && s.child.signalCode === null)
        .map((s) => {
          const gone = exitOf(s);
          s.child.kill('SIGTERM');
          return gone;
        }),
    );
    await balancer?.close();
    await telegram?.close();
    await openai?.close();
    await s3?.close();
    await admin?.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => {});
    await admin?.end();
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('1. serves a file uploaded on A from B with the same bytes, and 404 once A deleted it', async () => {
    const bytes = Buffer.concat([PDF, randomBytes(64)]);
    const form = await multipart(
      { chatbotId: botId, keyword: 'otoño', context: 'La carta de otoño' },
      { field: 'file', name: 'Carta de otoño.pdf', data: bytes },
    );
    const up = await fetch(`${a.url}/api/chatbot-files`, {
      method: 'POST',
      headers: { ...auth, 'content-type': form.contentType },
      body: form.body,
    });
    expect(up.status, await up.clone().text()).toBe(201);
    const file = (await up.json()) as { id: string; file_url: string };
    const path = `/files/${file.file_url.split('/').map(encodeURIComponent).join('/')}`;

    const onB = await fetch(`${b.url}${path}`);
    expect(onB.status).toBe(200);
    expect(Buffer.from(await onB.arrayBuffer()).equals(bytes)).toBe(true);

    const deleted = await fetch(`${a.url}/api/chatbot-files/${file.id}`, { method: 'DELETE', headers: auth });
    expect(deleted.status).toBe(204);
    expect((await fetch(`${b.url}${path}`)).status).toBe(404);
  });

  it('2. shows on A’s live conversations stream a follower message that reached B, within 1 s', async () => {
    const stream = await openSseClient(`${a.url}/api/conversations/${botId}/events`, auth);
    try {
      await stream.waitFor('ready');
      const from = stream.events.length;
      const sentAt = Date.now();
      const answer = await chat(b, 'visitante-en-b', '¿Tenéis terraza?', 'sse-1');
      expect(answer.status).toBe(200);
      const event = await stream.waitFor(
        (e) =>
          e.event === 'message' && String((e.data as { userId?: string }).userId).includes('visitante-en-b'),
        5_000,
        from,
      );
      expect(event.at - sentAt).toBeLessThan(1000);
    } finally {
      stream.close();
    }
  });

  it(`3. admits exactly ${VISITOR_LIMIT} of ${VISITOR_LIMIT + 4} turns of one visitor alternating between A and B`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < VISITOR_LIMIT + 4; i++)
      statuses.push((await chat(i % 2 === 0 ? a : b, 'visitante-limite', `hola ${i}`, `lim-${i}`)).status);
    expect(statuses).toEqual([...Array(VISITOR_LIMIT).fill(200), ...Array(4).fill(429)]);
  });

  it('4. sends a reservation reminder due while both nodes run once', async () => {
    // Meanwhile (the reminder is due in up to a minute) scenario 6's followers write /start,
    // through the balancer to either node.
    for (let i = 0; i < FOLLOWERS; i++) expect(await say(7000 + i, '/start')).toBe(200);
    await until(
      () =>
        Array.from({ length: FOLLOWERS }, (_, i) => String(7000 + i)).every(
          (id) => sent((c) => String(c.params.chat_id) === id).length > 0,
        ),
      30_000,
      'the greetings',
    );
    const reminders = () => sent((c) => /Recordatorio/.test(String(c.params.text)));
    await until(() => reminders().length > 0, Math.max(0, reminderDue - Date.now()) + 20_000, 'the reminder');
    expect(reminders()).toHaveLength(1);
    expect(String(reminders()[0]!.params.chat_id)).toBe('4242');
    expect(String(reminders()[0]!.params.text)).toContain(bookingCode);
    expect(reminders()[0]!.at).toBeGreaterThanOrEqual(reminderDue - 1000);
  }, 120_000);

  it('5. SIGTERM on A with 20 turns in flight: each is answered once and A exits 0', async () => {
    // Telegram posts to A (B only when A refuses connections), as a balancer draining A would.
    balancer.prefer(portOf(a));
    // The balancer ended the clients' open connections: let them see it before the next request.
    await new Promise((r) => setTimeout(r, 200));
    const exited = exitOf(a);
    const requestsBefore = openai.requests.length;
    const web = Array.from({ length: 10 }, (_, i) =>
      chat(a, `visitante-sigterm-${i}`, `lento web ${i}`, `sigterm-${i}`),
    );
    // Ten Telegram followers, one message each: stored in A's inbox and at the model when A stops.
    const texts = new Map<string, number>();
    for (let i = 0; i < 10; i++) {
      const text = `lento telegram ${6001 + i}`;
      texts.set(text, 6001 + i);
      expect(await say(6001 + i, text)).toBe(200);
    }
    await until(
      () => openai.requests.length - requestsBefore >= 20,
      10_000,
      'the 10 web turns and 10 Telegram turns at the model',
    );
    a.child.kill('SIGTERM');
    const answers = await Promise.all(web);
    expect(answers.map((x) => x.status)).toEqual(Array(10).fill(200));
    expect(answers.map((x) => x.body.reply)).toEqual(answers.map((_, i) => `Respuesta: lento web ${i}`));
    expect(await exited).toBe(0);
    balancer.prefer(null);
    balancer.setTargets([portOf(b)]);

    const answered = (text: string) => sent((c) => c.params.text === `Respuesta: ${text}`);
    await until(
      () => [...texts.keys()].every((t) => answered(t).length > 0),
      20_000,
      'every Telegram message answered',
    );
    await new Promise((r) => setTimeout(r, 1000));
    for (const [text, chatId] of texts) {
      expect(answered(text), text).toHaveLength(1);
      expect(String(answered(text)[0]!.params.chat_id)).toBe(String(chatId));
    }

    a = await serve('a');
    balancer.setTargets([portOf(a), portOf(b)]);
    await telegramConnected(a);
  }, 90_000);

  it('6. SIGKILL on A mid-broadcast: B finishes it, every follower gets it exactly once', async () => {
    const TEXT = 'Mañana cerramos por inventario. ¡Os esperamos el jueves!';
    // Everyone who wrote to the bot: the booking follower, scenario 5's and the 40 registered above.
    const followers = new Set(sent().map((c) => String(c.params.chat_id)));
    expect(followers.size).toBe(1 + 10 + FOLLOWERS);

    // A is killed the moment Telegram receives the 15th broadcast message: mid-broadcast, with
    // that message in flight (sent, not yet recorded as sent).
    const broadcastCalls = () => sent((c) => c.params.text === TEXT);
    const calls = telegram.calls;
    const push = calls.push.bind(calls);
    calls.push = (...items: BotCall[]) => {
      const n = push(...items);
      if (a.child.exitCode === null && a.child.signalCode === null && broadcastCalls().length >= 15)
        a.child.kill('SIGKILL');
      return n;
    };
    // A is the one sending: B is paused (SIGSTOP) until A has claimed the broadcast's job and sent
    // its first message, so B cannot claim it first.
    // The audience per channel (issue 27 §5): every Telegram follower, and the web visitors of
    // the earlier scenarios, who get it in their thread.
    const audience = (await (
      await fetch(`${a.url}/api/broadcasts/${botId}/audience`, { headers: auth })
    ).json()) as { audiences: Array<{ audience: string; count: number }>; reachable: number };
    expect(audience.audiences.find((x) => x.audience === 'telegram')?.count).toBe(followers.size);
    b.child.kill('SIGSTOP');
    const form = new FormData();
    form.append('chatbotId', botId);
    form.append('text', TEXT);
    const startedRes = await fetch(`${a.url}/api/telegram-broadcast`, {
      method: 'POST',
      headers: auth,
      body: form,
    });
    expect(startedRes.status, await startedRes.clone().text()).toBe(200);
    const { broadcastId, total } = (await startedRes.json()) as { broadcastId: string; total: number };
    expect(total).toBe(audience.reachable);
    await until(() => broadcastCalls().length > 0, 15_000, 'A to start sending').finally(() =>
      b.child.kill('SIGCONT'),
    );
    await exitOf(a);
    calls.push = push;
    expect(broadcastCalls()).toHaveLength(15);
    balancer.setTargets([portOf(b)]);

    let row: BroadcastsAnswer['broadcasts'][number] | undefined;
    await until(
      async () => {
        const answer = (await (
          await fetch(`${b.url}/api/broadcasts/${botId}`, { headers: auth })
        ).json()) as BroadcastsAnswer;
        row = answer.broadcasts.find((x) => x.id === broadcastId);
        return row?.status === 'done';
      },
      90_000,
      'B to finish the broadcast',
    );
    const perChat = new Map<string, number>();
    for (const c of broadcastCalls())
      perChat.set(String(c.params.chat_id), (perChat.get(String(c.params.chat_id)) ?? 0) + 1);
    expect([...perChat.entries()].filter(([, n]) => n > 1)).toEqual([]);
    expect([...followers].filter((id) => !perChat.has(id))).toEqual([]);
    expect(perChat.size).toBe(followers.size);
    // The one in flight at the kill went out but was not recorded: counted as failed (unknown), not resent.
    expect(row!.sent + row!.failed).toBe(total);
    expect(row!.failed).toBeLessThanOrEqual(1);
    expect(row!.remaining).toBe(0);
  }, 150_000);

  it('4 (later). no second copy of the reminder came from either node', () => {
    // Both nodes look for due jobs every 5 s; scenarios 5 and 6 took far longer than that.
    expect(Date.now() - reminderDue).toBeGreaterThan(30_000);
    expect(sent((c) => /Recordatorio/.test(String(c.params.text)))).toHaveLength(1);
  });
});
