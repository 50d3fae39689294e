/**
 * The WhatsApp section of `npm run bench` (issue 13), with the LLM replaced by the zero-latency
 * local server and Meta by the local Graph API wire-format server (test/servers/graph.ts, in its
 * own process: bench/graph-api.ts, so answering Charla's replies does not delay the load generator's
 * clock).
 *
 * 1. **Cloud API webhooks** (for each store of BENCH_STORES): 100 owners with days left, each with a
 *    bot connected to its own Cloud API number (token sealed, as `POST /api/connect-whatsapp-cloud`
 *    leaves it), written straight into a fresh database; `charla serve` runs as its own process.
 *    The bench POSTs signed webhooks (`X-Hub-Signature-256`) with unique `wamid`s spread over the
 *    100 numbers and 50 followers per number:
 *    (a) BENCH_WA_BURST (1,500) webhooks over 50 connections (closed loop): messages acknowledged
 *        per second, then messages answered end to end per second (the Graph server's text
 *        messages, first webhook → last reply);
 *    (b) a steady BENCH_WA_RATE (50) webhooks/s for BENCH_SECONDS over 20 connections (open loop):
 *        p50/p99 time to the 200 (goal p99 < 50 ms).
 * 2. **Memory per linked session** (PGlite): a child process (bench/whatsapp-memory.ts) connects
 *    BENCH_WA_SESSIONS (50) linked-device sessions with the real `@whiskeysockets/baileys`
 *    against a local WebSocket server that accepts and stays silent (no WhatsApp here: each socket
 *    stays in its handshake), and reports the RSS each one adds, Baileys' module included once.
 *
 * Prints figures and goals; exit 1 only when something broke. Alone:
 * `BENCH_ONLY=whatsapp node bin/run-ts.js bench/whatsapp.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../cli/app.ts';
import { loadConfig } from '../engine/config.ts';
import { createLogger } from '../engine/logger.ts';
import { hubSignature } from '../test/servers/graph.ts';
import { benchToken, type GraphStats } from './graph-api.ts';
import { maxThroughput, steadyRate, type Target } from './load.ts';
import { type Child, freePort, freshPostgresDb, killAll, spawnNode, stopAll, waitHealthy } from './procs.ts';
import { faults, fmtMs, fmtRate, mark, table } from './report.ts';
import { charlaEnv, LABEL, MESSAGE, SECONDS, STORES, type StoreName, WARMUP } from './settings.ts';

const NUMBERS = 100;
const FOLLOWERS = 50;
const BURST = Number(process.env.BENCH_WA_BURST ?? 1500);
const RATE = Number(process.env.BENCH_WA_RATE ?? 50);
const SESSIONS = Number(process.env.BENCH_WA_SESSIONS ?? 50);
const SECRET = 'bench-whatsapp-secret-of-at-least-32-chars';
const APP_SECRET = 'bench-meta-app-secret';
const GOAL = { ackP99: 50 };
const PG_DB = 'charla_bench_whatsapp';
const DAY = 86_400_000;
const log = (line: string) => process.stderr.write(`  · ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Writes `count` owners with days left and bots, each on Cloud API number `9000000 + i`. */
async function prepareNumbers(dataDir: string, databaseUrl: string, count: number) {
  const app = await createApp(
    loadConfig({ CHARLA_DATA_DIR: dataDir, DATABASE_URL: databaseUrl, CHARLA_SECRET: SECRET }),
    { log: createLogger({ level: 'silent' }), env: {} },
  );
  try {
    const db = app.store.db;
    const expires = new Date(Date.now() + 30 * DAY);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const token = benchToken(i);
      const phoneNumberId = String(9_000_000 + i);
      const owner = await db
        .insertInto('owners')
        .values({ email: `wa${i}@bench.example.com`, email_verified: true, image: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('user_profiles')
        .values({ user_id: owner.id, plan: 'free', expires_at: expires })
        .execute();
      const bot = await db
        .insertInto('chatbots')
        .values({
          user_id: owner.id,
          business_name: `Bench WA ${i}`,
          business_description: 'Restaurante de cocina casera en el centro. Abrimos de martes a domingo.',
          idioma: 'Español',
          whatsapp_number: `3460000${i}`,
          meta_token: app.secrets.encrypt(token),
          meta_business_account_id: '7000',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .withTables<{
          whatsapp_connections: {
            chatbot_id: string;
            backend: string;
            status: string;
            phone_number_id: string;
          };
        }>()
        .insertInto('whatsapp_connections')
        .values({ chatbot_id: bot.id, backend: 'cloud', status: 'active', phone_number_id: phoneNumberId })
        .execute();
      ids.push(bot.id);
    }
    return ids;
  } finally {
    await app.close();
  }
}

/** Signed webhooks: message i to number i mod 100 from follower ⌊i / 100⌋ mod 50. */
function webhookTarget(origin: string, next: () => number): Target {
  return {
    url: `${origin}/channels/whatsapp`,
    request() {
      const i = next();
      const n = i % NUMBERS;
      const from = String(34_611_000_000 + n * 1000 + (Math.floor(i / NUMBERS) % FOLLOWERS));
      const body = JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: '7000',
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  metadata: { display_phone_number: '34600', phone_number_id: String(9_000_000 + n) },
                  contacts: [{ profile: { name: 'Ana' }, wa_id: from }],
                  messages: [
                    {
                      from,
                      id: `wamid.BENCH${i}`,
                      timestamp: String(Math.floor(Date.now() / 1000)),
                      type: 'text',
                      text: { body: MESSAGE },
                    },
                  ],
                },
              },
            ],
          },
        ],
      });
      return {
        path: '/channels/whatsapp',
        headers: { 'x-hub-signature-256': hubSignature(body, APP_SECRET) },
        body,
      };
    },
  };
}

async function benchCloud(
  store: StoreName,
  llmBaseURL: string,
): Promise<{ text: string; summary: string; broken: string[] }> {
  const broken: string[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), `charla-bench-wa-${store}-`));
  const graphApi = spawnNode('fake Graph API', ['bin/run-ts.js', 'bench/graph-api.ts', String(NUMBERS)]);
  let charla: Child | undefined;
  try {
    const graph = JSON.parse((await graphApi.waitForLine(/^(\{.*\})\s*$/, 30_000))[1]!) as {
      url: string;
      control: string;
    };
    const stats = async () => (await (await fetch(`${graph.control}/stats`)).json()) as GraphStats;
    const databaseUrl = store === 'postgres' ? await freshPostgresDb(PG_DB) : '';
    log(`WhatsApp on ${LABEL[store]}: ${NUMBERS} owners with Cloud API numbers`);
    await prepareNumbers(dataDir, databaseUrl, NUMBERS);
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    charla = spawnNode(
      'charla serve (whatsapp)',
      ['bin/charla.js', 'serve', '--port', String(port), '--host', '127.0.0.1'],
      {
        ...charlaEnv(dataDir, llmBaseURL),
        DATABASE_URL: databaseUrl,
        CHARLA_SECRET: SECRET,
        WHATSAPP_GRAPH_URL: graph.url,
        META_APP_SECRET: APP_SECRET,
        TELEGRAM_MODE: 'polling',
      },
    );
    await waitHealthy(`${origin}/healthz`, charla, 60_000);
    let counter = 1;
    const target = webhookTarget(origin, () => counter++);
    const sent = async () => (await stats()).texts;
    const drained = async (acked: number, label: string) => {
      const deadline = Date.now() + 90_000;
      let last = await sent();
      let quietSince = Date.now();
      while (Date.now() < deadline) {
        await sleep(100);
        const now = await sent();
        if (now !== last) {
          last = now;
          quietSince = Date.now();
        } else if (now >= acked && Date.now() - quietSince > 1000) break;
      }
      const total = await sent();
      if (total < acked) broken.push(`${label}: ${total} replies for ${acked} acknowledged messages`);
    };
    const probe = await steadyRate(target, 10, 1, 0.1, 'probe');
    if (probe.ok !== 1)
      throw new Error(`the probe webhook was refused: ${JSON.stringify(probe.statuses)}\n${charla.output()}`);
    let acked = 1;
    await drained(acked, 'probe');
    if (WARMUP > 0) {
      const warm = await steadyRate(target, RATE, 20, WARMUP, 'warm');
      acked += warm.ok;
      await drained(acked, 'warm-up');
    }
    log(`WhatsApp on ${LABEL[store]}: (a) ${BURST} webhooks over 50 connections`);
    const before = await sent();
    const t0 = Date.now();
    const burst = await maxThroughput(target, 50, 60, 'burst', BURST);
    acked += burst.ok;
    await drained(acked, '(a)');
    const after = await stats();
    const handledRate = ((after.texts - before) / Math.max(1, (after.lastMessageAt ?? t0) - t0)) * 1000;
    log(`WhatsApp on ${LABEL[store]}: (b) ${RATE} webhooks/s over 20 connections, ${SECONDS} s`);
    const steady = await steadyRate(target, RATE, 20, SECONDS, 'steady');
    acked += steady.ok;
    await drained(acked, '(b)');
    for (const [name, r] of [
      ['(a)', burst],
      ['(b)', steady],
    ] as const) {
      const bad = r.errors + r.non2xx + r.mismatches;
      if (bad > 0) broken.push(`${name}: ${bad} webhooks refused or failed (${JSON.stringify(r.statuses)})`);
    }
    const rows: string[][] = [
      ['', 'Charla', 'goal'],
      [`(a) burst of ${fmtRate(BURST)} webhooks, 50 connections: acknowledged/s`, fmtRate(burst.rate), ''],
      ['    time to the 200, p50 / p99', `${fmtMs(burst.p50)} / ${fmtMs(burst.p99)}`, ''],
      ['    answered end to end, messages/s (first webhook → last reply)', fmtRate(handledRate), ''],
      [`(b) ${RATE} webhooks/s, 20 connections: time to the 200, p50`, fmtMs(steady.p50), ''],
      ['    p99', fmtMs(steady.p99), `< ${GOAL.ackP99} ms ${mark(steady.p99 < GOAL.ackP99)}`],
      ['errors / timeouts / non-2xx / mismatches (a)', faults(burst), ''],
      ['                                         (b)', faults(steady), ''],
    ];
    const text = `\nWhatsApp Cloud API webhooks on ${LABEL[store]} — ${NUMBERS} numbers, ${FOLLOWERS} followers each, zero-latency LLM, local Graph API server in its own process\n${table(rows)}\n  A webhook is acknowledged once its messages are stored in the inbox (signature checked on the raw body); replies go through the Graph API server.\n`;
    const summary = `WhatsApp Cloud API on ${LABEL[store]}: ${fmtRate(burst.rate)} webhooks acknowledged/s, ${fmtRate(handledRate)} answered/s, p99 to the 200 ${fmtMs(steady.p99)} at ${RATE}/s`;
    return { text, summary, broken };
  } finally {
    await charla?.stop(15_000);
    await graphApi.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function benchSessions(): Promise<{ text: string; summary: string; broken: string[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'charla-bench-wa-mem-'));
  try {
    log(`WhatsApp memory: ${SESSIONS} linked-device sessions`);
    const child = spawnNode(
      'whatsapp memory',
      ['bin/run-ts.js', 'bench/whatsapp-memory.ts', String(SESSIONS)],
      {
        CHARLA_DATA_DIR: dataDir,
        DATABASE_URL: '',
        CHARLA_SECRET: SECRET,
        LOG_LEVEL: 'error',
      },
      ['--expose-gc'],
    );
    let line: string;
    try {
      line = (await child.waitForLine(/^(\{"memory".*)$/, 180_000))[1]!;
    } finally {
      await child.stop(15_000);
    }
    const m = (
      JSON.parse(line) as { memory: { module: number; sessions: number; connected: number; opened: number } }
    ).memory;
    const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
    const broken = m.connected < SESSIONS ? [`only ${m.connected} of ${SESSIONS} sessions connected`] : [];
    const rows: string[][] = [
      ['', 'Charla'],
      ['RSS of loading @whiskeysockets/baileys (once per process)', mb(m.module)],
      [`RSS added by ${SESSIONS} sessions`, mb(m.sessions)],
      ['    per session', `${(m.sessions / 1024 / SESSIONS).toFixed(0)} KB`],
      ['sessions held / sockets opened', `${m.connected} / ${m.opened}`],
    ];
    const text = `\nWhatsApp linked devices — memory of ${SESSIONS} sessions (real Baileys sockets against a silent local WebSocket server: each stays in its handshake; a logged-in session also holds its signal sessions and caches)\n${table(rows)}\n`;
    const summary = `WhatsApp linked devices: ${(m.sessions / 1024 / SESSIONS).toFixed(0)} KB RSS per session, Baileys module ${mb(m.module)} once`;
    return { text, summary, broken };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs the WhatsApp section; resolves with the printed text, summaries and whether something broke. */
export async function whatsappBench(
  llmBaseURL: string,
): Promise<{ text: string; summaries: string[]; failed: boolean }> {
  let text = '';
  const summaries: string[] = [];
  let failed = false;
  const run = async (
    name: string,
    section: () => Promise<{ text: string; summary: string; broken: string[] }>,
  ) => {
    try {
      const r = await section();
      text += r.text;
      summaries.push(r.summary);
      if (r.broken.length > 0) {
        failed = true;
        text += `  BROKEN: ${r.broken.join('\n  BROKEN: ')}\n`;
      }
    } catch (err) {
      failed = true;
      text += `\n${name}: FAILED — ${(err as Error).stack ?? err}\n`;
    }
  };
  for (const store of STORES) {
    if (store !== 'pglite' && store !== 'postgres') continue;
    await run(`WhatsApp Cloud API on ${LABEL[store]}`, () => benchCloud(store, llmBaseURL));
  }
  if (SESSIONS > 0) await run('WhatsApp memory', benchSessions);
  return { text, summaries, failed };
}

if (process.env.BENCH_ONLY === 'whatsapp') {
  let code = 1;
  try {
    const fake = spawnNode('fake LLM', ['bin/run-ts.js', 'test/servers/openai-main.ts', '0']);
    const llmBaseURL = (await fake.waitForLine(/^(http\S+\/v1)\s*$/, 30_000))[1]!;
    const { text, summaries, failed } = await whatsappBench(llmBaseURL);
    process.stdout.write(text);
    if (summaries.length) process.stdout.write(`\nSummary\n${summaries.map((s) => `  ${s}`).join('\n')}\n`);
    code = failed ? 1 : 0;
  } catch (err) {
    process.stdout.write(`\nbench failed: ${(err as Error).stack ?? err}\n`);
  } finally {
    await stopAll();
    killAll();
  }
  process.exit(code);
}
