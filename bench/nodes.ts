/**
 * Two nodes against one (issue 26, "Tests and benchmark"): on one PostgreSQL database, `charla
 * serve` alone under the closed loop (50 followers), then a second node on the same database with
 * the same secret and the same 50 followers split across both (25 each, as a round-robin proxy
 * would), in the same run. Prints both rates, their ratio (the goal, 1.7×, needs a machine with
 * the cores for two nodes, PostgreSQL, the fake LLM and the load generator) and the CPU each
 * message cost, which says what the second node adds in coordination (shared limits, batched
 * writes from two processes, NOTIFY) independently of the cores.
 * Alone: `BENCH_ONLY=nodes npm run bench`.
 */
import { cpus } from 'node:os';
import { cpuWindow } from './cpu.ts';
import { charlaCli, log, tempDir } from './engine.ts';
import { type LoadResult, maxThroughput, type Target } from './load.ts';
import { type Child, freePort, freshPostgresDb, spawnNode, waitHealthy } from './procs.ts';
import { fmtPct, fmtRate, table } from './report.ts';
import { charlaEnv, MAX_CONNECTIONS, MESSAGE, SECONDS, WARMUP } from './settings.ts';

const DB = 'charla_bench_nodes';
/** The goal on a machine with the cores for it. */
const GOAL_RATIO = 1.7;

async function startNode(env: NodeJS.ProcessEnv, name: string): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const child = spawnNode(
    name,
    ['bin/charla.js', 'serve', '--port', String(port), '--host', '127.0.0.1'],
    env,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(`${url}/readyz`, child, 60_000);
  return { child, url };
}

function target(url: string, botId: string): Target {
  return {
    url: `${url}/api/chatbot-message/${botId}`,
    body: (visitorId, messageId) => JSON.stringify({ userMessage: MESSAGE, visitorId, messageId }),
  };
}

/** CPU ms per answered message over a window, from the processes' CPU seconds. */
const msPer = (cpuSeconds: number, ok: number) =>
  ok > 0 ? `${((cpuSeconds * 1000) / ok).toFixed(2)} ms` : '–';

/** The two-node section: its text and a summary line. */
export async function nodesBench(
  llmBaseURL: string,
  fakePid: number,
): Promise<{ text: string; summary: string }> {
  const env = {
    ...charlaEnv(tempDir('charla-bench-node-a-'), llmBaseURL),
    DATABASE_URL: await freshPostgresDb(DB),
    CHARLA_SECRET: 'bench-secret-shared-by-both-nodes-0123456789',
  };
  log('two nodes: migrate + seed the demo');
  await charlaCli(['migrate'], env);
  const { botId } = JSON.parse(await charlaCli(['seed', '--demo', '--json'], env)) as { botId: string };
  const a = await startNode(env, 'node A');
  let b: { child: Child; url: string } | undefined;
  try {
    if (WARMUP > 0) await maxThroughput(target(a.url, botId), MAX_CONNECTIONS, WARMUP, 'warm');
    log(`two nodes: one node, ${MAX_CONNECTIONS} connections, ${SECONDS} s`);
    let cpu = cpuWindow({ server: a.child.proc.pid!, fake: fakePid, postgres: DB });
    const one = await maxThroughput(target(a.url, botId), MAX_CONNECTIONS, SECONDS, 'one');
    const oneCpu = cpu.stop();
    log(`two nodes:     ${fmtRate(one.rate)} msgs/s`);

    b = await startNode({ ...env, CHARLA_DATA_DIR: tempDir('charla-bench-node-b-') }, 'node B');
    const half = MAX_CONNECTIONS / 2;
    if (WARMUP > 0) await maxThroughput(target(b.url, botId), half, WARMUP, 'warm');
    log(`two nodes: both nodes, ${half} + ${half} connections, ${SECONDS} s`);
    cpu = cpuWindow({ server: a.child.proc.pid!, fake: fakePid, postgres: DB });
    const cpuB = cpuWindow({ server: b.child.proc.pid!, fake: fakePid });
    const [onA, onB] = await Promise.all([
      maxThroughput(target(a.url, botId), half, SECONDS, 'twoA'),
      maxThroughput(target(b.url, botId), half, SECONDS, 'twoB'),
    ]);
    const twoCpuA = cpu.stop();
    const twoCpuB = cpuB.stop();
    const two: LoadResult = { ...onA, ok: onA.ok + onB.ok, rate: onA.rate + onB.rate };
    log(`two nodes:     ${fmtRate(two.rate)} msgs/s (${fmtRate(onA.rate)} + ${fmtRate(onB.rate)})`);
    const ratio = two.rate / one.rate;
    const nodeCpu = (twoCpuA.server ?? 0) + (twoCpuB.server ?? 0);
    const faults = [one, onA, onB].reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0);
    const cores = cpus().length;
    const text =
      `\nTwo nodes on one PostgreSQL (issue 26): the bot-id chat route, ${MAX_CONNECTIONS} followers\n` +
      table([
        ['', 'msgs/s', 'Charla CPU / msg', 'PostgreSQL CPU / msg', 'errors'],
        [
          'one node',
          fmtRate(one.rate),
          msPer(oneCpu.server ?? 0, one.ok),
          msPer(oneCpu.postgres ?? 0, one.ok),
          String(one.errors + one.timeouts + one.non2xx),
        ],
        [
          'two nodes (25 + 25)',
          `${fmtRate(two.rate)} (${fmtRate(onA.rate)} + ${fmtRate(onB.rate)})`,
          msPer(nodeCpu, two.ok),
          msPer(twoCpuA.postgres ?? 0, two.ok),
          String(onA.errors + onA.timeouts + onA.non2xx + onB.errors + onB.timeouts + onB.non2xx),
        ],
      ]) +
      `\n  ratio ${ratio.toFixed(2)}× (goal ≥ ${GOAL_RATIO}× with the cores for it; this machine has ${cores}: ` +
      `the nodes, PostgreSQL, the fake LLM and the load generator share them, so a second node can only ` +
      `add throughput where the first left a core idle)\n` +
      `  CPU per message, two nodes against one: ${fmtPct(nodeCpu / two.ok / ((oneCpu.server ?? 0) / one.ok))} ` +
      `(what a second node costs in coordination, whatever the cores)\n` +
      (faults > 0 ? `  ✗ ${faults} failed requests\n` : '');
    const summary = `two nodes: ${fmtRate(two.rate)} msgs/s against ${fmtRate(one.rate)} on one (${ratio.toFixed(2)}×, ${cores} cores)`;
    return { text, summary };
  } finally {
    await b?.child.stop(15_000);
    await a.child.stop(15_000);
  }
}
