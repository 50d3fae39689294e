/**
 * The followers' conversations section of `npm run bench` (issue 14, "Benchmark"): the time from a
 * follower's message to the owner's screen. For each store of BENCH_STORES, an in-process Charla
 * (the real engine, plugins and HTTP server on a port) on a new database with the demo seeded and no
 * LLM; the owner's screen is `GET /api/conversations/:bot/events` read over real HTTP. 200 follower
 * messages, each from a new follower, 20 a second; latency = the `message` event for that follower
 * on the stream − the moment the message was handed to the engine. Prints p50, p99, last and
 * events missed (must be 0). Goal: p99 < 1 s.
 *
 * Alone: `BENCH_ONLY=conversations node bin/run-ts.js bench/conversations.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../cli/app.ts';
import { DEMO_EMAIL, seedDemo } from '../cli/seed.ts';
import { createSessionToken } from '../engine/auth/owners.ts';
import { loadConfig } from '../engine/config.ts';
import { createLogger } from '../engine/logger.ts';
import { findOwnerByEmail } from '../engine/store/queries/owners.ts';
import { freshPostgresDb } from './procs.ts';
import { fmtMs, mark, runAlone, table } from './report.ts';
import { LABEL, STORES, type StoreName } from './settings.ts';

const MESSAGES = Number(process.env.BENCH_LIVE_MESSAGES ?? 200);
const RATE = 20;
const GOAL = { p99: 1000 };
const PG_DB = 'charla_bench_conversations';

const log = (line: string) => process.stderr.write(`  · ${line}\n`);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function measure(databaseUrl: string | undefined, dataDir: string) {
  const app = await createApp(
    loadConfig({
      CHARLA_DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      CHARLA_SECRET: 'bench-secret-of-at-least-32-characters!',
    }),
    { log: createLogger({ level: 'silent' }), env: {}, llm: null },
  );
  const controller = new AbortController();
  try {
    await app.startChannels();
    const demo = await seedDemo(app);
    const owner = (await findOwnerByEmail(app.store.db, DEMO_EMAIL))!;
    const token = await createSessionToken(app.auth, owner.id);
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    const res = await fetch(`${base}/api/conversations/${demo.bot.id}/events`, {
      headers: { authorization: `Bearer ${token}` },
      signal: controller.signal,
    });
    const sentAt = new Map<string, number>();
    const latency = new Map<string, number>();
    let ready: () => void = () => {};
    const isReady = new Promise<void>((r) => {
      ready = r;
    });
    const reading = (async () => {
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith('event: ready')) ready();
          const m = /"userId":"(bench-\d+)"/.exec(block);
          if (m && sentAt.has(m[1]!) && !latency.has(m[1]!))
            latency.set(m[1]!, Date.now() - sentAt.get(m[1]!)!);
          end = buffer.indexOf('\n\n');
        }
      }
    })();
    await isReady;
    log(`conversations: ${MESSAGES} follower messages at ${RATE}/s`);
    const turns: Promise<unknown>[] = [];
    const start = Date.now();
    for (let i = 0; i < MESSAGES; i++) {
      const wait = start + (i * 1000) / RATE - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const id = `bench-${i}`;
      sentAt.set(id, Date.now());
      turns.push(
        app.engine.handleTurn({
          chatbotId: demo.bot.id,
          channel: 'telegram',
          follower: { id },
          text: '¿Tenéis terraza?',
          messageId: id,
        }),
      );
    }
    await Promise.all(turns);
    const deadline = Date.now() + 5000;
    while (latency.size < MESSAGES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    await reading;
    const sorted = [...latency.values()].sort((a, b) => a - b);
    return {
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1)!,
      missed: MESSAGES - latency.size,
    };
  } finally {
    controller.abort();
    await app.close();
  }
}

/** Runs the section; returns its printed text and summary lines. */
export async function conversationsBench(): Promise<{ text: string; summaries: string[]; failed: boolean }> {
  const rows: string[][] = [['', 'p50', 'p99', 'last', 'missed', `goal p99 < ${GOAL.p99 / 1000} s`]];
  const summaries: string[] = [];
  let failed = false;
  for (const name of STORES as StoreName[]) {
    const dir = mkdtempSync(join(tmpdir(), 'charla-bench-conversations-'));
    try {
      const url = name === 'postgres' ? await freshPostgresDb(PG_DB) : undefined;
      const r = await measure(url, dir);
      rows.push([
        LABEL[name],
        fmtMs(r.p50),
        fmtMs(r.p99),
        fmtMs(r.max),
        String(r.missed),
        mark(r.p99 < GOAL.p99 && r.missed === 0),
      ]);
      summaries.push(
        `conversations (${name}): follower message → owner's screen p99 ${fmtMs(r.p99)} (goal < 1 s), ${r.missed} missed`,
      );
      if (r.missed > 0) failed = true;
    } catch (err) {
      failed = true;
      rows.push([LABEL[name], 'FAILED', (err as Error).message]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const text = `\nFollowers' conversations — a follower's message to the owner's live screen (SSE over HTTP), ${MESSAGES} messages at ${RATE}/s\n${table(rows)}\n`;
  return { text, summaries, failed };
}

if (process.env.BENCH_ONLY === 'conversations') await runAlone('Conversations', conversationsBench);
