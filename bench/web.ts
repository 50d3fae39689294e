/**
 * The web channel section of `npm run bench` (issue 6): the server's added time to the first
 * streamed token. `charla serve` runs as its own process on a freshly seeded PGlite data dir; the
 * LLM is the local OpenAI-format server (test/servers/openai.ts) in this process, which waits
 * LLM_FIRST_TOKEN_MS before its first streamed piece. A visitor posts to
 * `/api/web/<demo key>/message` with `Accept: text/event-stream`; the bench measures, per message,
 * the time from sending to the first `token` event, and the LLM's own time from receiving the
 * request to writing its first piece; the difference is what Charla adds (HTTP, validation, the
 * bot and history reads, matching, the empathy container, the prompt, the SSE relay).
 * Sequential messages (one visitor at a time, MESSAGES of them after WARMUP_MESSAGES), each from
 * a new visitor so history stays short. Goal (issue 6): added p95 ≤ 50 ms. Prints the widget's
 * gzip sizes too (bench/widget.ts) when the widget is built.
 * Alone: `BENCH_ONLY=web npm run bench`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeOpenAi, startFakeOpenAi } from '../test/servers/openai.ts';
import { freePort, spawnNode, stopAll, waitHealthy } from './procs.ts';
import { fmtMs, mark, runAlone, table } from './report.ts';
import { charlaEnv } from './settings.ts';

const MESSAGES = Number(process.env.BENCH_WEB_MESSAGES ?? 200);
const WARMUP_MESSAGES = 20;
/** The LLM's own delay before its first streamed piece, ms. */
const LLM_FIRST_TOKEN_MS = 50;
const GOAL = { addedP95: 50 };

const log = (line: string) => process.stderr.write(`  · ${line}\n`);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** One streamed message; resolves with the time to the first `token` event, ms. */
async function firstToken(url: string, visitorId: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ userMessage: '¿A qué hora abrís el sábado?', visitorId }),
  });
  if (!res.ok || !res.body) throw new Error(`message answered ${res.status}: ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let at: number | undefined;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    if (at === undefined && buffer.includes('event: token')) at = performance.now() - started;
    if (buffer.includes('event: done') || buffer.includes('event: error')) break;
  }
  await reader.cancel().catch(() => {});
  if (at === undefined) throw new Error(`no token event in: ${buffer.slice(0, 300)}`);
  return at;
}

/** Runs the web section; returns its printed text and a summary line. */
export async function webBench(): Promise<{ text: string; summaries: string[]; failed: boolean }> {
  const dir = mkdtempSync(join(tmpdir(), 'charla-bench-web-'));
  let fake: FakeOpenAi | undefined;
  const received: number[] = [];
  try {
    fake = await startFakeOpenAi({
      record: false,
      reply: () => {
        received.push(performance.now());
        return {
          text: 'Abrimos el sábado de 13:00 a 16:30 y de 20:00 a 23:30. ¿Quieres reservar?',
          chunkDelayMs: LLM_FIRST_TOKEN_MS,
        };
      },
    });
    // The bench's charla environment: its 220 messages come from one address, so no per-visitor limits.
    const env = charlaEnv(dir, fake.baseURL);
    const seed = spawnNode('charla seed', ['bin/charla.js', 'seed', '--demo'], env);
    await new Promise<void>((resolve, reject) =>
      seed.proc.on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`seed failed\n${seed.output()}`)),
      ),
    );
    const port = await freePort();
    const serve = spawnNode('charla serve', ['bin/charla.js', 'serve', '--port', String(port)], env);
    const base = `http://127.0.0.1:${port}`;
    await waitHealthy(`${base}/healthz`, serve, 60_000);
    const landing = (await (await fetch(`${base}/api/ialanding/ialanding-el-pato-pepe`)).json()) as {
      charla_key: string;
    };
    const url = `${base}/api/web/${landing.charla_key}/message`;
    log(
      `web: ${WARMUP_MESSAGES} warm-up + ${MESSAGES} streamed messages, LLM first piece after ${LLM_FIRST_TOKEN_MS} ms`,
    );
    const added: number[] = [];
    const total: number[] = [];
    for (let i = 0; i < WARMUP_MESSAGES + MESSAGES; i++) {
      const before = received.length;
      const ttft = await firstToken(url, `bench-visitor-${i}`);
      if (received.length !== before + 1) throw new Error('the message did not reach the LLM exactly once');
      // The LLM's own first-token time is its fixed wait (the fake writes at once after it).
      if (i >= WARMUP_MESSAGES) {
        total.push(ttft);
        added.push(ttft - LLM_FIRST_TOKEN_MS);
      }
    }
    await serve.stop();
    added.sort((a, b) => a - b);
    total.sort((a, b) => a - b);
    const p95 = percentile(added, 95);
    const text = `\nWeb channel — streamed reply through /api/web/<key>/message (PGlite, sequential, LLM first piece after ${LLM_FIRST_TOKEN_MS} ms)\n${table(
      [
        [
          'time to first token, p50 / p95',
          `${fmtMs(percentile(total, 50))} / ${fmtMs(percentile(total, 95))}`,
        ],
        [
          'added by Charla, p50 / p95',
          `${fmtMs(percentile(added, 50))} / ${fmtMs(p95)}   ≤ ${GOAL.addedP95} ms ${mark(p95 <= GOAL.addedP95)}`,
        ],
        ['added by Charla, max', fmtMs(added.at(-1))],
      ],
    )}\n`;
    return {
      text,
      summaries: [`web: added time to first token p95 ${fmtMs(p95)} (goal ≤ ${GOAL.addedP95} ms)`],
      failed: false,
    };
  } finally {
    // A failed run leaves `charla serve` writing in `dir`: stopped first, or removing it fails
    // (ENOTEMPTY) and hides the run's own error.
    await stopAll();
    await fake?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env.BENCH_ONLY === 'web') await runAlone('Web channel', webBench);
