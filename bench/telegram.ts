/**
 * The Telegram section of `npm run bench` (issue 5), with the LLM replaced by the zero-latency
 * local server (test/servers/openai-main.ts) and Telegram by the local Bot API wire-format server
 * (test/servers/telegram.ts, in its own process: bench/telegram-api.ts).
 *
 * 1. **Webhooks** (for each store of BENCH_STORES): 100 owners with days left, each with a bot whose
 *    Telegram token is stored encrypted, written straight into a fresh database (the same rows
 *    `POST /api/verify-telegram` leaves); then `charla serve` runs as its own process with
 *    `TELEGRAM_MODE=webhook` and sets the 100 webhooks on the fake. The bench POSTs updates to
 *    `/channels/telegram/<bot>` with each bot's secret header (derived from CHARLA_SECRET, as the
 *    server derives it), unique `update_id`s spread over the 100 bots and 50 chats per bot:
 *    (a) a burst of BENCH_TG_BURST (1,500) updates over 50 connections (closed loop): updates
 *        acknowledged per second and the acknowledgement's p50/p99, then, once every reply has
 *        reached the fake Bot API, updates handled end to end per second (`sendMessage` calls, from
 *        the first webhook to the last reply: the inbox works off the backlog at its own pace);
 *    (b) a steady BENCH_TG_RATE (50) updates/s for BENCH_SECONDS over 20 connections (open loop,
 *        latency from the scheduled send): the acknowledgement's p50/p99 while the server is also
 *        answering (goal p99 < 50 ms), and whether the replies keep up.
 * 2. **Memory** (PGlite): a child process (bench/telegram-memory.ts) connects 1,000 bots in
 *    long-polling mode (`TELEGRAM_POLL_TIMEOUT_S=25`, so idle polls hang on the fake) and measures
 *    its RSS after a GC before connecting and once all 1,000 polls are open; goal: the 1,000 bots
 *    add under 300 MB (300 KB per bot).
 *
 * Prints figures and goals; fails (exit 1) only when something broke: a refused webhook, an update
 * never answered, a reply that is not the LLM's (a webhook the server takes over 10 s to acknowledge
 * is a figure, "timed out"). Alone: `BENCH_ONLY=telegram npm run bench`, or
 * `BENCH_ONLY=telegram node bin/run-ts.js bench/telegram.ts`. Settings: BENCH_TG_BURST,
 * BENCH_TG_RATE, BENCH_TG_MEMORY_BOTS (1,000; 0 skips the memory part), and the main bench's
 * BENCH_STORES, BENCH_SECONDS, BENCH_WARMUP, BENCH_PG_ADMIN_URL and BENCH_CPU_PROF.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SECRET_HEADER, telegramWebhookSecret } from '../adapters/telegram/webhook.ts';
import { FAILURE_TEXTS } from '../engine/conversation/texts.ts';
import { SecretBox } from '../engine/secrets.ts';
import { cpuWindow } from './cpu.ts';
import { maxThroughput, steadyRate, type Target } from './load.ts';
import { type Child, freePort, freshPostgresDb, killAll, spawnNode, stopAll, waitHealthy } from './procs.ts';
import { fmtMs, fmtRate } from './report.ts';
import { CPU_PROF, charlaEnv, LABEL, MESSAGE, SECONDS, STORES, type StoreName, WARMUP } from './settings.ts';
import {
  BOTS,
  BURST,
  BURST_CONNECTIONS,
  CHATS_PER_BOT,
  RATE,
  STEADY_CONNECTIONS,
  type WebhookResult,
  webhookReport,
} from './telegram-report.ts';
import { benchMemory, MEMORY_BOTS } from './telegram-rss.ts';
import { log, prepareBots, SECRET, sleep, startFakeApi, statsOf, waitStats } from './telegram-setup.ts';

/** How long the replies of a load may take to reach the fake Bot API before the bench gives up. */
const DRAIN_MS = 90_000;
const PG_DB = 'charla_bench_telegram';

/** What the fake LLM answers (every reply the bots send should be this text). */
async function llmReply(llmBaseURL: string): Promise<string> {
  const res = await fetch(`${llmBaseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 'hola' }] }),
  });
  const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
  return body.choices[0]!.message.content;
}

/** Webhook requests over the bots: update i goes to bot i mod 100, chat ⌊i / 100⌋ mod 50. */
function webhookTarget(
  origin: string,
  chatbotIds: string[],
  telegramBotIds: string[],
  nextUpdate: () => number,
): Target {
  const box = new SecretBox(SECRET);
  const routes = chatbotIds.map((id, i) => ({
    path: `/channels/telegram/${encodeURIComponent(id)}`,
    headers: { [SECRET_HEADER]: telegramWebhookSecret(box, id, telegramBotIds[i]!) },
  }));
  return {
    url: origin,
    request() {
      const i = nextUpdate();
      const bot = i % routes.length;
      const chatId = 1_000_000_000 + bot * 10_000 + (Math.floor(i / routes.length) % CHATS_PER_BOT);
      const from = { id: chatId, is_bot: false, first_name: 'Ana', username: `ana_${chatId}` };
      const body = JSON.stringify({
        update_id: i,
        message: {
          message_id: i,
          date: Math.floor(Date.now() / 1000),
          chat: { id: chatId, type: 'private', first_name: 'Ana' },
          from,
          text: MESSAGE,
        },
      });
      return { ...routes[bot]!, body };
    },
  };
}

/** Waits until two /healthz round trips in a row take < 20 ms (the server has worked off its backlog). */
async function settle(origin: string): Promise<void> {
  const deadline = performance.now() + 30_000;
  let fast = 0;
  while (fast < 2 && performance.now() < deadline) {
    const t0 = performance.now();
    try {
      const res = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(5000) });
      await res.arrayBuffer();
      fast = res.ok && performance.now() - t0 < 20 ? fast + 1 : 0;
    } catch {
      fast = 0;
    }
    await sleep(100);
  }
}

async function benchWebhooks(
  store: StoreName,
  llmBaseURL: string,
): Promise<{ text: string; summary: string; broken: string[] }> {
  const broken: string[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), `charla-bench-tg-${store}-`));
  const api = await startFakeApi(BOTS);
  let charla: Child | undefined;
  try {
    const databaseUrl = store === 'postgres' ? await freshPostgresDb(PG_DB) : '';
    log(`Telegram on ${LABEL[store]}: ${BOTS} owners and bots`);
    const chatbotIds = await prepareBots(dataDir, databaseUrl, api.bots);
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    log(`Telegram on ${LABEL[store]}: starting charla serve (webhooks)`);
    charla = spawnNode(
      'charla serve (telegram)',
      ['bin/charla.js', 'serve', '--port', String(port), '--host', '127.0.0.1'],
      {
        ...charlaEnv(dataDir, llmBaseURL),
        DATABASE_URL: databaseUrl,
        CHARLA_SECRET: SECRET,
        PUBLIC_URL: origin,
        TELEGRAM_MODE: 'webhook',
        TELEGRAM_API_ROOT: api.apiRoot,
      },
      CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [],
    );
    await waitHealthy(`${origin}/healthz`, charla, 60_000);
    const hooked = await waitStats(api.control, (s) => s.webhooksSet >= BOTS, 30_000);
    if (!hooked.ok)
      throw new Error(
        `only ${hooked.stats.webhooksSet} of ${BOTS} bots set their webhook\n${charla.output()}`,
      );

    let updateCounter = 1;
    const target = webhookTarget(
      origin,
      chatbotIds,
      api.bots.map((b) => String(b.id)),
      () => updateCounter++,
    );
    const expected = await llmReply(llmBaseURL);
    // One update first: the route, the secret, the LLM and the reply all work.
    const probe = await steadyRate(target, 10, 1, 0.1, 'probe');
    if (probe.ok !== 1)
      throw new Error(`the probe webhook was not acknowledged: ${JSON.stringify(probe.statuses)}`);
    const probed = await waitStats(api.control, (s) => s.sent >= 1, 15_000);
    if (!probed.ok) throw new Error(`the probe update got no reply\n${charla.output()}`);
    const firstText = Object.keys(probed.stats.texts)[0];
    if (firstText !== expected)
      throw new Error(
        `the probe's reply is not the LLM's: ${JSON.stringify(firstText)} (expected ${JSON.stringify(expected)})`,
      );

    // Every acknowledged update gets its reply, and the fake has been quiet for a second (a
    // webhook the bench gave up on may still have been stored, and is answered too).
    const drained = async (acked: number, label: string) => {
      const r = await waitStats(
        api.control,
        (s) => s.sent >= acked && Date.now() - (s.lastSentAt ?? 0) > 1000,
        DRAIN_MS,
      );
      if (r.stats.sent < acked)
        broken.push(
          `${label}: ${r.stats.sent} replies for ${acked} acknowledged updates after ${DRAIN_MS / 1000} s`,
        );
      return r.stats;
    };
    let acked = 1;
    if (WARMUP > 0) {
      log(`Telegram on ${LABEL[store]}: warm-up ${WARMUP} s at ${RATE} updates/s`);
      const warm = await steadyRate(target, RATE, STEADY_CONNECTIONS, WARMUP, 'warm');
      acked += warm.ok;
      await drained(acked, 'warm-up');
      await settle(origin);
    }

    log(`Telegram on ${LABEL[store]}: (a) ${BURST} updates over ${BURST_CONNECTIONS} connections`);
    const before = await statsOf(api.control);
    const pids = {
      server: charla.proc.pid!,
      fake: api.child.proc.pid!,
      ...(store === 'postgres' ? { postgres: PG_DB } : {}),
    };
    let cpu = cpuWindow(pids);
    const t0 = Date.now();
    const burst = await maxThroughput(target, BURST_CONNECTIONS, 60, 'burst', BURST);
    acked += burst.ok;
    const afterBurst = await drained(acked, '(a)');
    const burstCpu = cpu.stop();
    const burstHandled = afterBurst.sent - before.sent;
    const burstMs = (afterBurst.lastSentAt ?? Date.now()) - t0;
    log(
      `Telegram on ${LABEL[store]}:     ${fmtRate(burst.rate)} acknowledged/s, ${fmtRate((burstHandled / burstMs) * 1000)} handled/s`,
    );
    await settle(origin);

    log(
      `Telegram on ${LABEL[store]}: (b) ${RATE} updates/s over ${STEADY_CONNECTIONS} connections, ${SECONDS} s`,
    );
    const beforeSteady = await statsOf(api.control);
    cpu = cpuWindow(pids);
    const steady = await steadyRate(target, RATE, STEADY_CONNECTIONS, SECONDS, 'steady');
    const steadyCpu = cpu.stop();
    const sentEnd = Date.now();
    const atEnd = await statsOf(api.control);
    acked += steady.ok;
    const afterSteady = await drained(acked, '(b)');
    log(`Telegram on ${LABEL[store]}:     ack p50 ${fmtMs(steady.p50)}, p99 ${fmtMs(steady.p99)}`);

    const wrongTexts = Object.fromEntries(Object.entries(afterSteady.texts).filter(([t]) => t !== expected));
    if (Object.keys(wrongTexts).length > 0)
      broken.push(`replies other than the LLM's: ${JSON.stringify(wrongTexts)}`);
    if (Object.values(FAILURE_TEXTS).some((t) => t in afterSteady.texts))
      broken.push('the LLM call failed for some updates');
    for (const [name, r] of [
      ['(a)', burst],
      ['(b)', steady],
    ] as const) {
      // Timeouts (no answer within 10 s) are a figure; refused or failed webhooks are a fault.
      const bad = r.errors + r.non2xx + r.mismatches;
      if (bad > 0) broken.push(`${name}: ${bad} webhooks refused or failed (${JSON.stringify(r.statuses)})`);
    }
    if (charla.proc.exitCode !== null) broken.push(`charla serve died\n${charla.output()}`);

    const result: WebhookResult = {
      burst,
      burstHandled,
      handledRate: (burstHandled / burstMs) * 1000,
      burstMs,
      cpu: { server: burstCpu.server, postgres: burstCpu.postgres, fakeApi: burstCpu.fake },
      burstCpu,
      steadyCpu,
      steady,
      steadyHandled: afterSteady.sent - beforeSteady.sent,
      steadyHandledRate: (atEnd.sent - beforeSteady.sent) / steady.seconds,
      steadyTailMs: Math.max(0, (afterSteady.lastSentAt ?? sentEnd) - sentEnd),
      wrongTexts,
    };
    const text = webhookReport(store, result);
    const summary = `Telegram on ${LABEL[store]}: ${fmtRate(burst.rate)} webhooks acknowledged/s, ${fmtRate(result.handledRate)} updates handled end to end/s, ack p99 ${fmtMs(steady.p99)} at ${RATE} updates/s`;
    return { text, summary, broken };
  } finally {
    await charla?.stop(15_000);
    await api.child.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Runs the Telegram section against a running fake LLM; resolves with the printed text, summary
 * lines, and whether something broke.
 */
export async function telegramBench(
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
    if (store !== 'pglite' && store !== 'postgres') continue; // the main bench reports it
    await run(`Telegram webhooks on ${LABEL[store]}`, () => benchWebhooks(store, llmBaseURL));
  }
  if (MEMORY_BOTS > 0) await run('Telegram memory', benchMemory);
  return { text, summaries, failed };
}

if (process.env.BENCH_ONLY === 'telegram') {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      killAll();
      process.exit(130);
    });
  }
  let code = 1;
  try {
    const cpu = cpus();
    process.stdout.write(
      `Charla bench — Telegram channel, zero-latency local LLM, local Bot API server\n` +
        `  ${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'}, Node ${process.version}, load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}\n`,
    );
    const fake = spawnNode('fake LLM', ['bin/run-ts.js', 'test/servers/openai-main.ts', '0']);
    const llmBaseURL = (await fake.waitForLine(/^(http\S+\/v1)\s*$/, 30_000))[1]!;
    const { text, summaries, failed } = await telegramBench(llmBaseURL);
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
