/**
 * The broadcasts section of `npm run bench` (issue 14, "Benchmark"): broadcast throughput per bot.
 * For each store of BENCH_STORES, an in-process Charla (the real engine, plugins, job queue and
 * HTTP routes) on a new database with the demo seeded, its Telegram bot on the local Bot API server
 * (test/servers/telegram.ts), and BENCH_BROADCAST_FOLLOWERS (600) Telegram followers. One
 * `POST /api/telegram-broadcast` with a text; measured on the Bot API server's side: sustained
 * messages/s (first to last delivery), the busiest second, followers who got nothing (lost) and
 * got it more than once (duplicated). Goal: 29 msg/s sustained, never over 30 in a second, 0 lost,
 * 0 duplicated.
 *
 * Alone: `BENCH_ONLY=broadcasts node bin/run-ts.js bench/broadcasts.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../cli/app.ts';
import { DEMO_EMAIL, seedDemo } from '../cli/seed.ts';
import { createSessionToken } from '../engine/auth/owners.ts';
import { loadConfig } from '../engine/config.ts';
import { createLogger } from '../engine/logger.ts';
import { findOwnerByEmail } from '../engine/store/queries/owners.ts';
import { startFakeTelegram } from '../test/servers/telegram.ts';
import { freshPostgresDb } from './procs.ts';
import { mark, runAlone, table } from './report.ts';
import { LABEL, STORES, type StoreName } from './settings.ts';

const FOLLOWERS = Number(process.env.BENCH_BROADCAST_FOLLOWERS ?? 600);
const GOAL = { rate: 29, peak: 30 };
const PG_DB = 'charla_bench_broadcasts';
const TEXT = 'Oferta de la semana: menú del día a 12 €';

const log = (line: string) => process.stderr.write(`  · ${line}\n`);

async function measure(databaseUrl: string | undefined, dataDir: string) {
  const telegram = await startFakeTelegram();
  const app = await createApp(
    loadConfig({
      CHARLA_DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      CHARLA_SECRET: 'bench-secret-of-at-least-32-characters!',
    }),
    {
      log: createLogger({ level: 'silent' }),
      env: { TELEGRAM_API_ROOT: telegram.apiRoot, TELEGRAM_MODE: 'polling' },
      llm: null,
    },
  );
  try {
    await app.startChannels();
    const demo = await seedDemo(app);
    const owner = (await findOwnerByEmail(app.store.db, DEMO_EMAIL))!;
    const auth = { authorization: `Bearer ${await createSessionToken(app.auth, owner.id)}` };
    const http = await app.http();
    const tg = telegram.addBot('PatoPepeBot');
    const connected = await http.inject({
      method: 'POST',
      url: '/api/verify-telegram',
      headers: auth,
      payload: { telegramToken: tg.token, telegramUsername: tg.username, chatbotId: demo.bot.id },
    });
    if (connected.statusCode !== 200) throw new Error(`verify-telegram: ${connected.body}`);
    await app.store.db
      .insertInto('followers')
      .values(
        Array.from({ length: FOLLOWERS }, (_, i) => ({
          chatbot_id: demo.bot.id,
          channel: 'telegram',
          external_id: String(2_000_000 + i),
          username: `bench${i}`,
        })),
      )
      .execute();
    log(`broadcasts: ${FOLLOWERS} Telegram followers`);
    const form = new FormData();
    form.append('chatbotId', demo.bot.id);
    form.append('text', TEXT);
    const encoded = new Response(form);
    const started = await http.inject({
      method: 'POST',
      url: '/api/telegram-broadcast',
      headers: { ...auth, 'content-type': encoded.headers.get('content-type')! },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    if (started.statusCode !== 200) throw new Error(`telegram-broadcast: ${started.body}`);
    const delivered = () =>
      telegram.callsOf(tg.token, 'sendMessage').filter((c) => c.params.text === TEXT && !c.failed);
    const deadline = Date.now() + (FOLLOWERS / GOAL.rate) * 1000 * 2 + 30_000;
    let last = -1;
    let quietSince = Date.now();
    while (Date.now() < deadline) {
      const n = delivered().length;
      if (n !== last) {
        last = n;
        quietSince = Date.now();
      } else if (n >= FOLLOWERS && Date.now() - quietSince > 1500) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const calls = delivered();
    const at = calls.map((c) => c.at).sort((a, b) => a - b);
    let peak = 0;
    for (let start = 0, end = 0; end < at.length; end++) {
      while (at[end]! - at[start]! >= 1000) start++;
      peak = Math.max(peak, end - start + 1);
    }
    const perChat = new Map<string, number>();
    for (const c of calls)
      perChat.set(String(c.params.chat_id), (perChat.get(String(c.params.chat_id)) ?? 0) + 1);
    const seconds = at.length > 1 ? (at.at(-1)! - at[0]!) / 1000 : 0;
    return {
      rate: seconds > 0 ? (at.length - 1) / seconds : 0,
      peak,
      lost: FOLLOWERS - perChat.size,
      duplicated: [...perChat.values()].filter((n) => n > 1).length,
      seconds,
    };
  } finally {
    await app.close();
    await telegram.close();
  }
}

/** Runs the section; returns its printed text and summary lines. */
export async function broadcastsBench(): Promise<{ text: string; summaries: string[]; failed: boolean }> {
  const rows: string[][] = [['', 'msg/s sustained', 'busiest second', 'lost', 'duplicated', 'took', 'goal']];
  const summaries: string[] = [];
  let failed = false;
  for (const name of STORES as StoreName[]) {
    const dir = mkdtempSync(join(tmpdir(), 'charla-bench-broadcasts-'));
    try {
      const url = name === 'postgres' ? await freshPostgresDb(PG_DB) : undefined;
      const r = await measure(url, dir);
      const ok = r.rate >= GOAL.rate * 0.97 && r.peak <= GOAL.peak && r.lost === 0 && r.duplicated === 0;
      rows.push([
        LABEL[name],
        r.rate.toFixed(1),
        String(r.peak),
        String(r.lost),
        String(r.duplicated),
        `${r.seconds.toFixed(1)} s`,
        mark(ok),
      ]);
      summaries.push(
        `broadcasts (${name}): ${r.rate.toFixed(1)} msg/s sustained (goal 29), busiest second ${r.peak} (≤ 30), ${r.lost} lost, ${r.duplicated} duplicated`,
      );
      if (r.lost > 0 || r.duplicated > 0) failed = true;
    } catch (err) {
      failed = true;
      rows.push([LABEL[name], 'FAILED', (err as Error).message]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const text = `\nBroadcasts — one text to ${FOLLOWERS} Telegram followers of one bot, measured at the Bot API server\n${table(rows)}\n`;
  return { text, summaries, failed };
}

if (process.env.BENCH_ONLY === 'broadcasts') await runAlone('Broadcasts', broadcastsBench);
