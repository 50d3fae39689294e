/**
 * `npm run bench`: the conversation engine's own cost per message over HTTP, with the LLM replaced
 * by a zero-latency local server (test/servers/openai-main.ts, streamed replies).
 *
 * For each store (embedded PGlite, then PostgreSQL) it starts `charla serve` as its own process on
 * a freshly migrated and seeded database and measures, on `POST /api/chatbot-message/<demo bot>`
 * with messages that match no file keyword (so every turn calls the LLM):
 *   (a) the most messages/s that 50 concurrent followers get (closed loop, 50 connections);
 *   (b) p50/p99 latency at a steady 500 messages/s over 10 connections (open loop, latency from
 *       the scheduled send time).
 * It runs the same two loads against the floor (bench/floor.ts: a bare Fastify route making the
 * same single streamed call to the same LLM server and answering a fixed JSON of the same size)
 * and prints Charla/floor. Then the cold start of `charla serve` on an existing PGlite data dir:
 * spawn to the first 200 on /healthz, three times, and the median; last, the gzipped JavaScript that
 * the dashboard's /login and /main load first (bench/dashboard.ts), the public pages' weight, LCP and
 * blocking time on a throttled phone (bench/site.ts); and the Telegram channel
 * (bench/telegram.ts: webhook updates/s and acknowledgement latency over 100 bots, memory of 1,000
 * long-polling bots), the scheduled jobs (bench/jobs.ts: lateness of 1,000 jobs due in the
 * same second), the reservations (bench/reservations.ts: tool-calling turns/s against plain turns,
 * lateness of 1,000 reminders due together), the followers' screen (bench/conversations.ts: a follower's
 * message to the owner's live screen), the broadcasts (bench/broadcasts.ts: messages/s to 600 Telegram
 * followers, lost and duplicated), the files' knowledge (bench/knowledge.ts: recall@3 of the answering passage,
 * offline answer accuracy, retrieval latency at 10,000 passages per bot), and WhatsApp (bench/whatsapp.ts: Cloud API webhooks/s and time to the 200 over
 * 100 numbers, memory per linked-device session). `BENCH_ONLY=telegram` (or `whatsapp`, `dashboard`,
 * `web`, `jobs`, `reservations`, `conversations`, `broadcasts`, `site`, `knowledge`) runs one section alone;
 * `BENCH_ONLY=engine` runs the engine's two loads, two nodes against one (bench/nodes.ts, on
 * PostgreSQL) and the cold start only; `BENCH_ONLY=nodes` the two-node comparison alone.
 *
 * Goals (issue 25; on a 2-core machine): on PostgreSQL ≥ 50% of the floor's throughput and
 * ≥ 1,000 messages/s where the floor allows it (its half reaches 1,000), p99 < 25 ms at 500
 * messages/s; on PGlite ≥ 30% of the floor; cold start < 1.5 s. The bench prints the figures
 * next to the goals and does not fail on them; it exits 1 only when something broke.
 *
 * Settings (environment): BENCH_SECONDS (10) per measurement, BENCH_WARMUP (3) seconds of
 * warm-up, BENCH_STORES ("pglite,postgres"), BENCH_PG_ADMIN_URL
 * (postgres://postgres@127.0.0.1:5432/postgres), BENCH_CPU_PROF=<dir> to run `charla serve` under
 * `node --cpu-prof` and leave the profiles there.
 */
import { rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { broadcastsBench } from './broadcasts.ts';
import { coldStart } from './cold-start.ts';
import { conversationsBench } from './conversations.ts';
import { dashboardSizes } from './dashboard.ts';
import { benchStore, charlaCli, log, tempDir, tempDirs } from './engine.ts';
import { jobsBench } from './jobs.ts';
import { knowledgeBench } from './knowledge.ts';
import { languageBench } from './language.ts';
import { nodesBench } from './nodes.ts';
import { killAll, spawnNode, stopAll } from './procs.ts';
import { reservationsBench } from './reservations.ts';
import {
  CPU_PROF,
  LABEL,
  MAX_CONNECTIONS,
  MESSAGE,
  SECONDS,
  STEADY_CONNECTIONS,
  STEADY_RATE,
  STORES,
  WARMUP,
} from './settings.ts';
import { siteBench } from './site.ts';
import { telegramBench } from './telegram.ts';
import { webBench } from './web.ts';
import { whatsappBench } from './whatsapp.ts';
import { widgetSizes } from './widget.ts';

async function main(): Promise<number> {
  const cpu = cpus();
  process.stdout.write(
    `Charla bench — engine cost per message over HTTP, zero-latency local LLM\n` +
      `  ${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'}, Node ${process.version}, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}\n` +
      `  (a) closed loop, ${MAX_CONNECTIONS} connections = ${MAX_CONNECTIONS} followers; (b) open loop, ${STEADY_RATE} msgs/s evenly spaced over ${STEADY_CONNECTIONS} connections, latency from the scheduled send\n` +
      `  ${WARMUP} s warm-up + ${SECONDS} s per measurement; message "${MESSAGE}" (no file keyword: one LLM call per turn)\n`,
  );
  if (CPU_PROF) process.stdout.write(`  CPU profiles of charla serve in ${CPU_PROF}\n`);

  const fake = spawnNode('fake LLM', ['bin/run-ts.js', 'test/servers/openai-main.ts', '0']);
  const llmBaseURL = (await fake.waitForLine(/^(http\S+\/v1)\s*$/, 30_000))[1]!;
  log(`fake LLM at ${llmBaseURL}`);

  let failed = false;
  let pgliteDir: string | undefined;
  const summaries: string[] = [];
  for (const store of process.env.BENCH_ONLY === 'nodes' ? [] : STORES) {
    if (store !== 'pglite' && store !== 'postgres') {
      process.stdout.write(`\nunknown store "${store}" in BENCH_STORES (pglite, postgres)\n`);
      failed = true;
      continue;
    }
    try {
      const { text, dataDir, summary } = await benchStore(store, llmBaseURL, fake.proc.pid!);
      process.stdout.write(text);
      summaries.push(summary);
      if (store === 'pglite') pgliteDir = dataDir;
    } catch (err) {
      failed = true;
      process.stdout.write(`\n${LABEL[store]}: FAILED — ${(err as Error).stack ?? err}\n`);
      await stopAll();
      const stillFake = fake.proc.exitCode === null;
      if (!stillFake) throw new Error(`the fake LLM died\n${fake.output()}`);
    }
  }

  // Issue 26: two nodes on one PostgreSQL against one, in the same run (bench/nodes.ts).
  if (STORES.includes('postgres')) {
    try {
      const nodes = await nodesBench(llmBaseURL, fake.proc.pid!);
      process.stdout.write(nodes.text);
      summaries.push(nodes.summary);
    } catch (err) {
      failed = true;
      process.stdout.write(`\nTwo nodes: FAILED — ${(err as Error).stack ?? err}\n`);
      await stopAll();
    }
  }
  if (process.env.BENCH_ONLY === 'nodes') {
    if (summaries.length) process.stdout.write(`\nSummary\n${summaries.map((s) => `  ${s}`).join('\n')}\n`);
    await stopAll();
    return failed ? 1 : 0;
  }

  try {
    if (!pgliteDir) {
      // The PGlite run was skipped or failed: make an existing data dir for the cold start.
      pgliteDir = tempDir('charla-bench-cold-');
      const env = { CHARLA_DATA_DIR: pgliteDir, DATABASE_URL: '', LOG_LEVEL: 'warn' };
      await charlaCli(['migrate'], env);
      await charlaCli(['seed', '--demo', '--json'], env);
    }
    process.stdout.write(await coldStart(pgliteDir, llmBaseURL));
  } catch (err) {
    failed = true;
    process.stdout.write(`\nCold start: FAILED — ${(err as Error).stack ?? err}\n`);
  }
  if (process.env.BENCH_ONLY === 'engine') {
    if (summaries.length) process.stdout.write(`\nSummary\n${summaries.map((s) => `  ${s}`).join('\n')}\n`);
    await stopAll();
    return failed ? 1 : 0;
  }

  try {
    process.stdout.write(await dashboardSizes());
    process.stdout.write(await widgetSizes());
  } catch (err) {
    failed = true;
    process.stdout.write(`\nDashboard JS: FAILED — ${(err as Error).stack ?? err}\n`);
  }

  const site = await siteBench();
  process.stdout.write(site.text);
  if (site.failed) failed = true;

  try {
    const telegram = await telegramBench(llmBaseURL);
    process.stdout.write(telegram.text);
    summaries.push(...telegram.summaries);
    if (telegram.failed) failed = true;
  } catch (err) {
    failed = true;
    process.stdout.write(`\nTelegram: FAILED — ${(err as Error).stack ?? err}\n`);
  }

  try {
    const whatsapp = await whatsappBench(llmBaseURL);
    process.stdout.write(whatsapp.text);
    summaries.push(...whatsapp.summaries);
    if (whatsapp.failed) failed = true;
  } catch (err) {
    failed = true;
    process.stdout.write(`\nWhatsApp: FAILED — ${(err as Error).stack ?? err}\n`);
  }

  try {
    const web = await webBench();
    process.stdout.write(web.text);
    summaries.push(...web.summaries);
    if (web.failed) failed = true;
  } catch (err) {
    failed = true;
    process.stdout.write(`\nWeb channel: FAILED — ${(err as Error).stack ?? err}\n`);
  }

  try {
    const jobs = await jobsBench();
    process.stdout.write(jobs.text);
    summaries.push(...jobs.summaries);
    if (jobs.failed) failed = true;
  } catch (err) {
    failed = true;
    process.stdout.write(`\nScheduled jobs: FAILED — ${(err as Error).stack ?? err}\n`);
  }

  try {
    const reservations = await reservationsBench();
    process.stdout.write(reservations.text);
    summaries.push(...reservations.summaries);
    if (reservations.failed) failed = true;
  } catch (err) {
    failed = true;
    process.stdout.write(`\nReservations: FAILED — ${(err as Error).stack ?? err}\n`);
  }

  try {
    const live = await conversationsBench();
    process.stdout.write(live.text);
    summaries.push(...live.summaries);
    if (live.failed) failed = true;
  } catch (err) {
    failed = true;
    process.stdout.write(`\nConversations: FAILED — ${(err as Error).stack ?? err}\n`);
  }

  try {
    const broadcasts = await broadcastsBench();
    process.stdout.write(broadcasts.text);
    summaries.push(...broadcasts.summaries);
    if (broadcasts.failed) failed = true;
  } catch (err) {
    failed = true;
    process.stdout.write(`\nBroadcasts: FAILED — ${(err as Error).stack ?? err}\n`);
  }

  try {
    const knowledge = await knowledgeBench();
    process.stdout.write(knowledge.text);
    summaries.push(...knowledge.summaries);
    if (knowledge.failed) failed = true;
  } catch (err) {
    failed = true;
    process.stdout.write(`\nFiles' knowledge: FAILED — ${(err as Error).stack ?? err}\n`);
  }

  try {
    const language = await languageBench();
    process.stdout.write(language.text);
    summaries.push(...language.summaries);
  } catch (err) {
    failed = true;
    process.stdout.write(`\nFollower's language: FAILED — ${(err as Error).stack ?? err}\n`);
  }

  if (summaries.length) process.stdout.write(`\nSummary\n${summaries.map((s) => `  ${s}`).join('\n')}\n`);
  process.stdout.write(
    `  load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (other processes on the machine skew msgs/s and latency; CPU per message is steadier)\n`,
  );
  await stopAll();
  return failed ? 1 : 0;
}

/** Kills every child and removes the temporary data dirs (also on Ctrl-C). */
function cleanUp(): void {
  killAll();
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    cleanUp();
    process.exit(130);
  });
}

let code = 1;
try {
  code = await main();
} catch (err) {
  process.stdout.write(`\nbench failed: ${(err as Error).stack ?? err}\n`);
  code = 1;
} finally {
  cleanUp();
}
process.exit(code);
