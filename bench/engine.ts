/**
 * The engine section of `npm run bench` (bench/index.ts runs it): on one store, `charla serve` on a
 * migrated and seeded database and the floor (bench/floor.ts), each under (a) the closed loop and
 * (b) the steady rate, with the CPU each process used; and the helpers the run shares (`charla`
 * commands, temporary folders, progress lines).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAILURE_TEXTS } from '../engine/conversation/texts.ts';
import { cpuWindow } from './cpu.ts';
import { maxThroughput, steadyRate, type Target } from './load.ts';
import { type Child, freePort, freshPostgresDb, spawnNode, waitHealthy } from './procs.ts';
import { fmtMs, fmtPct, fmtRate, type Measured, report } from './report.ts';
import {
  CPU_PROF,
  charlaEnv,
  LABEL,
  MAX_CONNECTIONS,
  MESSAGE,
  PG_DB,
  SECONDS,
  STEADY_CONNECTIONS,
  STEADY_RATE,
  type StoreName,
  WARMUP,
} from './settings.ts';

/** Temporary folders made by the run; bench/index.ts removes them at the end. */
export const tempDirs: string[] = [];
/** A temporary folder, removed at the end of the run. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** A progress line on stderr. */
export const log = (line: string) => process.stderr.write(`  · ${line}\n`);

/** Runs a `charla` command to completion; resolves with its stdout. */
export async function charlaCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 120_000,
): Promise<string> {
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

/** Starts the floor (bench/floor.ts) and waits for /healthz; resolves with its base URL. */
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

/**
 * The engine section on one store: Charla's bot-id chat route under the two loads, then the floor
 * under the same loads, and the report with both.
 */
export async function benchStore(
  store: StoreName,
  llmBaseURL: string,
  fakePid: number,
): Promise<{ text: string; dataDir: string; summary: string }> {
  const dataDir = tempDir(`charla-bench-${store}-`);
  const env = charlaEnv(dataDir, llmBaseURL);
  if (store === 'postgres') {
    log(`${LABEL[store]}: creating database ${PG_DB}`);
    env.DATABASE_URL = await freshPostgresDb(PG_DB);
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
