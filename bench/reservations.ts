/**
 * The reservations section of `npm run bench` (issue 12, "Benchmark"). For each store of
 * BENCH_STORES, an in-process Charla (the real engine, registry, plugins and job queue) on a new
 * database with the demo seeded (reservations on, El Pato Pepe's calendar), the LLM on the local
 * zero-latency OpenAI-format server:
 *   (a) tool-calling turns per second: each turn is two model rounds (the model asks for
 *       `reservations_free_slots`, Charla generates the week's slots and counts the places taken
 *       in the database, then the model answers), 10 at a time; and the same for plain turns (a
 *       bot without reservations: one round, no tools); prints both and their ratio;
 *   (b) reminder lateness: 1,000 confirmed reservations whose 2 h reminders are all due at the
 *       same instant; each goes through the real reminder handler (re-read, checks, `ctx.send`
 *       through a push channel, stored in the conversation, marked sent). Lateness = the moment
 *       the channel got it − the due time: first, p50, p99, last, and reminders sent twice (must
 *       be 0). Goal: p99 ≤ 5 s.
 *
 * Alone: `BENCH_ONLY=reservations node bin/run-ts.js bench/reservations.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CharlaApp, createApp } from '../cli/app.ts';
import { seedDemo } from '../cli/seed.ts';
import { loadConfig } from '../engine/config.ts';
import { createOpenAiClient } from '../engine/conversation/llm.ts';
import { createLogger } from '../engine/logger.ts';
import type { ChannelAdapter } from '../engine/registry/index.ts';
import { newCharlaKey } from '../engine/secrets.ts';
import { insertChatbot } from '../engine/store/queries/chatbots.ts';
import { reservationsDb } from '../plugins/reservations/queries.ts';
import { reminderJob } from '../plugins/reservations/reminders.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../test/servers/openai.ts';
import { freshPostgresDb } from './procs.ts';
import { fmtMs, fmtRate, mark, runAlone, table } from './report.ts';
import { LABEL, STORES, type StoreName } from './settings.ts';

const TURN_SECONDS = Number(process.env.BENCH_SECONDS ?? 10) / 2;
const CONCURRENCY = 10;
const REMINDERS = Number(process.env.BENCH_REMINDERS ?? 1000);
const LEAD_MS = 5000;
const GOAL = { reminderP99: 5000 };
const PG_DB = 'charla_bench_reservations';

const log = (line: string) => process.stderr.write(`  · ${line}\n`);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A channel that can push and records when each message reached it. */
function benchChannel(received: Map<string, number[]>): ChannelAdapter {
  return {
    id: 'bench',
    capabilities: { maxTextLength: 4096, voiceNotes: false, choices: false, streaming: false, push: true },
    async start() {},
    async send(_chatbotId, chatId) {
      received.set(chatId, [...(received.get(chatId) ?? []), Date.now()]);
    },
    async stop() {},
  };
}

/** Turns per second, `CONCURRENCY` at a time, for `TURN_SECONDS`. */
async function turnsPerSecond(app: CharlaApp, chatbotId: string, text: string): Promise<number> {
  let n = 0;
  let done = 0;
  const end = Date.now() + TURN_SECONDS * 1000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, w) => {
      while (Date.now() < end) {
        const i = n++;
        await app.engine.handleTurn({
          chatbotId,
          channel: 'bench',
          follower: { id: `f-${w}` },
          text,
          messageId: `${chatbotId}-${i}`,
        });
        done++;
      }
    }),
  );
  return done / ((Date.now() - started) / 1000);
}

interface Figures {
  toolTurns: number;
  plainTurns: number;
  first: number;
  p50: number;
  p99: number;
  max: number;
  twice: number;
}

async function measure(databaseUrl: string | undefined, dataDir: string, llm: FakeOpenAi): Promise<Figures> {
  const received = new Map<string, number[]>();
  const app = await createApp(
    loadConfig({
      CHARLA_DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      CHARLA_SECRET: 'bench-secret-of-at-least-32-characters!',
    }),
    {
      log: createLogger({ level: 'silent' }),
      env: {},
      llm: createOpenAiClient({
        baseURL: llm.baseURL,
        apiKey: 'bench',
        model: 'bench',
        timeoutMs: 10_000,
        maxRetries: 0,
      }),
      adapters: [benchChannel(received)],
    },
  );
  try {
    await app.startChannels();
    const demo = await seedDemo(app);
    const plain = await insertChatbot(app.store.db, {
      user_id: demo.ownerId,
      business_name: 'Sin reservas',
      business_description: 'Una tienda sin reservas.',
      idioma: 'Español',
      charla_key: newCharlaKey(),
    });
    log('reservations: tool-calling turns');
    const toolTurns = await turnsPerSecond(app, demo.bot.id, '¿Tenéis mesa libre?');
    log('reservations: plain turns');
    const plainTurns = await turnsPerSecond(app, plain.id, '¿Tenéis mesa libre?');

    log(`reservations: ${REMINDERS} reminders due at the same instant`);
    const due = Date.now() + LEAD_MS;
    const startsAt = new Date(due + 2 * 3_600_000);
    const db = reservationsDb(app.store.db);
    const ids: string[] = [];
    for (let from = 0; from < REMINDERS; from += 250) {
      const rows = await db
        .insertInto('reservations_v1')
        .values(
          Array.from({ length: Math.min(250, REMINDERS - from) }, (_, k) => ({
            reservation_code: `B${String(from + k).padStart(5, '0')}`,
            chatbot_ref: demo.bot.id,
            service: 'bench',
            party_size: 2,
            reserved_date: '2030-01-01',
            reserved_time: '20:00',
            slot_id: 'bench',
            starts_at: startsAt,
            ends_at: new Date(startsAt.getTime() + 3_600_000),
            place: from + k + 1,
            status: 'confirmed' as const,
            hold_expires_at: null,
            source: 'chat' as const,
            channel: 'bench',
            chat_id: `follower-${from + k}`,
            idempotency_key: null,
          })),
        )
        .returning('reservation_id')
        .execute();
      ids.push(...rows.map((r) => r.reservation_id));
    }
    await app.jobs.sendMany(
      reminderJob,
      ids.map((reservationId) => ({
        data: { reservationId, kind: '2h' as const, startsAt: startsAt.toISOString() },
        runAt: new Date(due),
        key: `${reservationId}:2h:${startsAt.toISOString()}`,
      })),
    );
    if (Date.now() > due) throw new Error('storing the reminders took longer than their lead time');
    const deadline = due + 120_000;
    while (received.size < REMINDERS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    if (received.size < REMINDERS)
      throw new Error(`only ${received.size} of ${REMINDERS} reminders went out in 2 minutes`);
    await new Promise((r) => setTimeout(r, 2000)); // a second send would show by now
    const late = [...received.values()].map((t) => t[0]! - due).sort((a, b) => a - b);
    return {
      toolTurns,
      plainTurns,
      first: late[0]!,
      p50: percentile(late, 50),
      p99: percentile(late, 99),
      max: late[late.length - 1]!,
      twice: [...received.values()].filter((t) => t.length > 1).length,
    };
  } finally {
    await app.close();
  }
}

/** Runs the section; returns its printed text and summary lines. */
export async function reservationsBench(): Promise<{ text: string; summaries: string[]; failed: boolean }> {
  // Tool turns: ask for the week's slots, then answer; plain turns: answer at once.
  const llm = await startFakeOpenAi({
    reply: (r) =>
      r.messages.at(-1)?.role === 'tool' || !r.tools
        ? { text: 'Tenemos mesa el sábado a las 14:00.' }
        : { text: '', toolCalls: [{ name: 'reservations_free_slots', arguments: { days: 7 } }] },
  });
  const rows: string[][] = [
    [
      '',
      'tool turns/s',
      'plain turns/s',
      'ratio',
      'reminder first',
      'p50',
      'p99',
      'last',
      'sent twice',
      `goal p99 ≤ ${GOAL.reminderP99 / 1000} s`,
    ],
  ];
  const summaries: string[] = [];
  let failed = false;
  try {
    for (const name of STORES as StoreName[]) {
      const dir = mkdtempSync(join(tmpdir(), 'charla-bench-reservations-'));
      try {
        const url = name === 'postgres' ? await freshPostgresDb(PG_DB) : undefined;
        const f = await measure(url, dir, llm);
        const ok = f.p99 <= GOAL.reminderP99 && f.twice === 0;
        rows.push([
          LABEL[name],
          fmtRate(f.toolTurns),
          fmtRate(f.plainTurns),
          `${(f.toolTurns / f.plainTurns).toFixed(2)}×`,
          fmtMs(f.first),
          fmtMs(f.p50),
          fmtMs(f.p99),
          fmtMs(f.max),
          String(f.twice),
          mark(ok),
        ]);
        summaries.push(
          `reservations (${name}): ${fmtRate(f.toolTurns)} tool-calling turns/s (${(f.toolTurns / f.plainTurns).toFixed(2)}× plain); reminder lateness p99 ${fmtMs(f.p99)} for ${REMINDERS} due together (goal ≤ 5 s)`,
        );
        if (f.twice > 0) failed = true;
      } catch (err) {
        failed = true;
        rows.push([LABEL[name], 'FAILED', (err as Error).message]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await llm.close();
  }
  const text =
    `\nReservations — turns with a tool call (2 model rounds and the slot query) vs plain turns, ${CONCURRENCY} at a time, zero-latency LLM; ` +
    `${REMINDERS} 2 h reminders due at the same instant through the real handler\n${table(rows)}\n`;
  return { text, summaries, failed };
}

if (process.env.BENCH_ONLY === 'reservations') await runAlone('Reservations', reservationsBench);
