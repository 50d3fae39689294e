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
 * and prints Charla/floor. Last, the cold start of `charla serve` on an existing PGlite data dir:
 * spawn to the first 200 on /healthz, three times, and the median.
 *
 * Goals (on Postgres, on a 2-core machine): ≥ 1,000 messages/s and ≥ 40% of the floor's
 * throughput; p99 < 25 ms at 500 messages/s; cold start < 1.5 s. The bench prints the figures
 * next to the goals and does not fail on them; it exits 1 only when something broke.
 *
 * Settings (environment): BENCH_SECONDS (10) per measurement, BENCH_WARMUP (3) seconds of
 * warm-up, BENCH_STORES ("pglite,postgres"), BENCH_PG_ADMIN_URL
 * (postgres://postgres@127.0.0.1:5432/postgres), BENCH_CPU_PROF=<dir> to run `charla serve` under
 * `node --cpu-prof` and leave the profiles there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { FAILURE_TEXTS } from '../engine/conversation/texts.ts';
import { type CpuUsage, cpuWindow } from './cpu.ts';
import { type LoadResult, maxThroughput, steadyRate, type Target } from './load.ts';
import { type Child, freePort, killAll, spawnNode, stopAll, waitHealthy } from './procs.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const STORES = (process.env.BENCH_STORES ?? 'pglite,postgres').split(',').map((s) => s.trim());
const PG_ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PG_DB = 'charla_bench';
const CPU_PROF = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;

const MAX_CONNECTIONS = 50;
const STEADY_RATE = 500;
const STEADY_CONNECTIONS = 10;
const GOAL = { rate: 1000, ofFloor: 0.4, p99: 25, coldStart: 1500 };
/** Matches no keyword of the demo files, so every turn calls the LLM. */
const MESSAGE = '¿A qué hora abrís el sábado?';

type StoreName = 'pglite' | 'postgres';
const LABEL: Record<StoreName, string> = { pglite: 'PGlite (embedded)', postgres: 'PostgreSQL' };

const tempDirs: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

const log = (line: string) => process.stderr.write(`  · ${line}\n`);

/** Runs a `charla` command to completion; resolves with its stdout. */
async function charlaCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<string> {
  const child = spawnNode(`charla ${args.join(' ')}`, ['bin/charla.js', ...args], env);
  let out = '';
  child.proc.stdout!.on('data', (s: string) => {
    out += s;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      void child.stop(1000);
      reject(new Error(`charla ${args.join(' ')} took over ${timeoutMs} ms\n${child.output()}`));
    }, timeoutMs);
    child.proc.once('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  await child.stop();
  if (code !== 0) throw new Error(`charla ${args.join(' ')} exited with ${code}\n${child.output()}`);
  return out;
}

/** A fresh `charla_bench` database. */
async function freshPostgresDb(): Promise<string> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${PG_DB}`);
  } finally {
    await client.end();
  }
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${PG_DB}`;
  return url.toString();
}

/** Starts `charla serve` and waits for /healthz; resolves with its base URL. */
async function startCharla(env: NodeJS.ProcessEnv, profile = false): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const child = spawnNode(
    'charla serve',
    ['bin/charla.js', 'serve', '--port', String(port), '--host', '127.0.0.1'],
    env,
    profile && CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [],
  );
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(`${url}/healthz`, child, 60_000);
  return { child, url };
}

async function startFloor(llmBaseURL: string, replyBytes: number): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const child = spawnNode('floor', [
    'bin/run-ts.js',
    'bench/floor.ts',
    String(port),
    llmBaseURL,
    String(replyBytes),
  ]);
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(`${url}/healthz`, child, 30_000);
  return { child, url };
}

/** One message through Charla, to check the route works and to learn the reply's size. */
async function probe(url: string): Promise<{ bytes: number; reply: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userMessage: MESSAGE, visitorId: 'probe', messageId: `probe-${Date.now()}` }),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`probe message answered ${res.status}: ${text}`);
  const body = JSON.parse(text) as {
    reply: string;
    offline: boolean;
    contenedorEmpatico: { archivos: { action: string } };
  };
  if (body.offline)
    throw new Error('charla answered from the offline responder: the fake LLM is not configured');
  if (Object.values(FAILURE_TEXTS).includes(body.reply))
    throw new Error(`the LLM call failed (failure text): ${text}`);
  if (body.contenedorEmpatico.archivos.action !== 'NONE')
    throw new Error(`the bench message matched a file keyword (${body.contenedorEmpatico.archivos.action})`);
  return { bytes: Buffer.byteLength(text), reply: body.reply };
}

type WithCpu = LoadResult & { cpu: CpuUsage };
interface Measured {
  max: WithCpu;
  steady: WithCpu;
}

/**
 * Waits until the server has worked off what the previous load left in flight (autocannon stops
 * sending at the deadline, not the server): until two /healthz round trips in a row take < 20 ms.
 */
async function settle(messageUrl: string): Promise<void> {
  const health = `${new URL(messageUrl).origin}/healthz`;
  const deadline = performance.now() + 30_000;
  let fast = 0;
  await new Promise((r) => setTimeout(r, 300));
  while (fast < 2 && performance.now() < deadline) {
    const t0 = performance.now();
    try {
      const res = await fetch(health, { signal: AbortSignal.timeout(5000) });
      await res.arrayBuffer();
      fast = res.ok && performance.now() - t0 < 20 ? fast + 1 : 0;
    } catch {
      fast = 0;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Warm-up, then (a) and (b), each with the CPU the processes used. */
async function measure(
  name: string,
  target: Target,
  pids: { server: number; fake: number; postgres?: string | undefined },
): Promise<Measured> {
  if (WARMUP > 0) {
    log(`${name}: warm-up ${WARMUP} s`);
    await maxThroughput(target, MAX_CONNECTIONS, WARMUP, 'warm');
  }
  await settle(target.url);
  log(`${name}: (a) ${MAX_CONNECTIONS} connections, ${SECONDS} s`);
  let cpu = cpuWindow(pids);
  const max = { ...(await maxThroughput(target, MAX_CONNECTIONS, SECONDS)), cpu: cpu.stop() };
  log(`${name}:     ${fmtRate(max.rate)} msgs/s`);
  await settle(target.url);
  log(`${name}: (b) ${STEADY_RATE} msgs/s over ${STEADY_CONNECTIONS} connections, ${SECONDS} s`);
  cpu = cpuWindow(pids);
  const steady = { ...(await steadyRate(target, STEADY_RATE, STEADY_CONNECTIONS, SECONDS)), cpu: cpu.stop() };
  log(`${name}:     p50 ${fmtMs(steady.p50)}, p99 ${fmtMs(steady.p99)}`);
  return { max, steady };
}

// ── formatting ────────────────────────────────────────────────────────────────────────────────

const fmtRate = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
const fmtMs = (n: number | undefined) =>
  n === undefined || !Number.isFinite(n) ? '–' : `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`;
const fmtPct = (n: number) => (Number.isFinite(n) ? `${Math.round(n * 100)}%` : '–');
const mark = (ok: boolean) => (ok ? '✓' : '✗');
const faults = (r: LoadResult) => `${r.errors} / ${r.timeouts} / ${r.non2xx} / ${r.mismatches}`;
/** CPU ms per answered message. */
const perMsg = (cpuSeconds: number | undefined, r: LoadResult) =>
  cpuSeconds === undefined || r.ok === 0 ? '–' : `${((cpuSeconds * 1000) / r.ok).toFixed(2)} ms`;
/** CPU seconds over a window, as a share of one core. */
const ofCore = (cpuSeconds: number | undefined, u: CpuUsage) =>
  cpuSeconds === undefined ? '–' : `${Math.round((cpuSeconds / u.seconds) * 100)}%`;

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? '')].length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join('   ')
        .trimEnd(),
    )
    .join('\n');
}

function report(store: StoreName, charla: Measured, floor: Measured, replyBytes: number): string {
  const ratio = charla.max.rate / floor.max.rate;
  const rateOk = charla.max.rate >= GOAL.rate;
  const ratioOk = ratio >= GOAL.ofFloor;
  const p99Ok = charla.steady.p99 < GOAL.p99;
  const bad = (r: LoadResult) => r.errors + r.timeouts + r.non2xx + r.mismatches;
  const both = (f: (m: Measured) => string) => [f(charla), f(floor)];
  const rows: string[][] = [
    ['', 'Charla', 'floor', 'Charla/floor', 'goal'],
    [
      `(a) msgs/s, ${MAX_CONNECTIONS} connections`,
      ...both((m) => fmtRate(m.max.rate)),
      fmtPct(ratio),
      `≥ ${fmtRate(GOAL.rate)} ${mark(rateOk)}   ≥ ${fmtPct(GOAL.ofFloor)} of floor ${mark(ratioOk)}`,
    ],
    ['    latency p50 / p99', ...both((m) => `${fmtMs(m.max.p50)} / ${fmtMs(m.max.p99)}`), '', ''],
    [
      `(b) p50 at ${STEADY_RATE} msgs/s, ${STEADY_CONNECTIONS} conns`,
      ...both((m) => fmtMs(m.steady.p50)),
      '',
      '',
    ],
    [
      `    p99 at ${STEADY_RATE} msgs/s`,
      ...both((m) => fmtMs(m.steady.p99)),
      '',
      `< ${GOAL.p99} ms ${mark(p99Ok)}`,
    ],
    ['    max', ...both((m) => fmtMs(m.steady.max)), '', ''],
    [
      '    p50 / p99 from actual send',
      ...both((m) => `${fmtMs(m.steady.serviceP50)} / ${fmtMs(m.steady.serviceP99)}`),
      '',
      '',
    ],
    ['    achieved msgs/s', ...both((m) => fmtRate(m.steady.rate)), '', ''],
    [
      'errors / timeouts / non-2xx / mismatches (a)',
      ...both((m) => faults(m.max)),
      '',
      `none ${mark(bad(charla.max) + bad(charla.steady) === 0)}`,
    ],
    ['                                         (b)', ...both((m) => faults(m.steady)), '', ''],
    ['CPU per message in (a): server process', ...both((m) => perMsg(m.max.cpu.server, m.max)), '', ''],
    ...(store === 'postgres'
      ? [['                        PostgreSQL', perMsg(charla.max.cpu.postgres, charla.max), '', '', '']]
      : []),
    ['                        fake LLM', ...both((m) => perMsg(m.max.cpu.fake, m.max)), '', ''],
    ['CPU in (a), % of one core: server', ...both((m) => ofCore(m.max.cpu.server, m.max.cpu)), '', ''],
    ['    other processes on the machine', ...both((m) => ofCore(m.max.cpu.other, m.max.cpu)), '', ''],
  ];
  const goalNote =
    store === 'postgres' ? '' : '  (the goals are set for PostgreSQL; shown here for reference)\n';
  const notes = [
    "  (b) latency counts from each message's scheduled send, so time queued behind a slow server counts;",
    '  "from actual send" leaves the queueing out. The fake LLM costs more per Charla message because',
    '  Charla sends it the system prompt and the history; the floor sends one short user message.',
  ];
  return `\n${LABEL[store]} — reply ${replyBytes} bytes, ${SECONDS} s per measurement\n${goalNote}${table(rows)}\n${notes.join('\n')}\n`;
}

// ── the run ───────────────────────────────────────────────────────────────────────────────────

async function benchStore(
  store: StoreName,
  llmBaseURL: string,
  fakePid: number,
): Promise<{ text: string; dataDir: string; summary: string }> {
  const dataDir = tempDir(`charla-bench-${store}-`);
  const env: NodeJS.ProcessEnv = {
    CHARLA_DATA_DIR: dataDir,
    DATABASE_URL: '',
    OPENAI_BASE_URL: llmBaseURL,
    OPENAI_API_KEY: 'x',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: '',
  };
  if (store === 'postgres') {
    log(`${LABEL[store]}: creating database ${PG_DB}`);
    env.DATABASE_URL = await freshPostgresDb();
  }
  log(`${LABEL[store]}: migrate + seed the demo`);
  await charlaCli(['migrate'], env);
  const seeded = JSON.parse(await charlaCli(['seed', '--demo', '--json'], env)) as { botId: string };

  log(`${LABEL[store]}: starting charla serve`);
  const charla = await startCharla(env, true);
  let charlaResult: Measured;
  let replyBytes: number;
  try {
    const messageUrl = `${charla.url}/api/chatbot-message/${seeded.botId}`;
    const first = await probe(messageUrl);
    replyBytes = first.bytes;
    charlaResult = await measure(
      `Charla on ${LABEL[store]}`,
      {
        url: messageUrl,
        body: (visitorId, messageId) => JSON.stringify({ userMessage: MESSAGE, visitorId, messageId }),
        expect: `"reply":${JSON.stringify(first.reply)}`,
      },
      { server: charla.child.proc.pid!, fake: fakePid, postgres: store === 'postgres' ? PG_DB : undefined },
    );
    if (charla.child.proc.exitCode !== null) throw new Error(`charla serve died\n${charla.child.output()}`);
  } finally {
    await charla.child.stop(15_000);
  }

  log(`floor: starting (reply ${replyBytes} bytes)`);
  const floor = await startFloor(llmBaseURL, replyBytes);
  let floorResult: Measured;
  try {
    floorResult = await measure(
      'floor',
      {
        url: `${floor.url}/message`,
        body: (visitorId, messageId) => JSON.stringify({ userMessage: MESSAGE, visitorId, messageId }),
        expect: 'Respuesta fija del suelo',
      },
      { server: floor.child.proc.pid!, fake: fakePid },
    );
  } finally {
    await floor.child.stop();
  }
  const ratio = charlaResult.max.rate / floorResult.max.rate;
  const summary = `${LABEL[store]}: ${fmtRate(charlaResult.max.rate)} msgs/s (${fmtPct(ratio)} of the floor's ${fmtRate(floorResult.max.rate)}), p99 ${fmtMs(charlaResult.steady.p99)} at ${STEADY_RATE} msgs/s`;
  return { text: report(store, charlaResult, floorResult, replyBytes), dataDir, summary };
}

/** Spawn of `charla serve` to its first 200 on /healthz, on an existing PGlite data dir. */
async function coldStart(dataDir: string, llmBaseURL: string): Promise<string> {
  const env: NodeJS.ProcessEnv = {
    CHARLA_DATA_DIR: dataDir,
    DATABASE_URL: '',
    OPENAI_BASE_URL: llmBaseURL,
    OPENAI_API_KEY: 'x',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: '',
  };
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const port = await freePort();
    const t0 = performance.now();
    const child = spawnNode(
      'charla serve (cold start)',
      ['bin/charla.js', 'serve', '--port', String(port), '--host', '127.0.0.1'],
      env,
    );
    try {
      times.push(await waitHealthy(`http://127.0.0.1:${port}/healthz`, child, 60_000, t0));
    } finally {
      await child.stop(15_000);
    }
  }
  const median = [...times].sort((a, b) => a - b)[1]!;
  return `\nCold start of \`charla serve\` (existing PGlite data dir, spawn → first 200 on /healthz)\n  runs: ${times
    .map((t) => `${Math.round(t)} ms`)
    .join(
      ', ',
    )}\n  median: ${Math.round(median)} ms   goal < ${GOAL.coldStart.toLocaleString('en-US')} ms ${mark(median < GOAL.coldStart)}\n`;
}

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
  for (const store of STORES) {
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
