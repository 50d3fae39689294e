/**
 * What the Telegram benchmark's parts share (bench/telegram.ts, bench/telegram-rss.ts): the fake
 * Bot API process and its counters, and the database rows of `count` owners with connected bots.
 */
import { createApp } from '../cli/app.ts';
import { loadConfig } from '../engine/config.ts';
import { createLogger } from '../engine/logger.ts';
import { type Child, spawnNode } from './procs.ts';
import type { FakeStats } from './telegram-api.ts';

export const SECRET = 'bench-telegram-secret-of-at-least-32-chars';
export const DAY = 86_400_000;

export const log = (line: string) => process.stderr.write(`  · ${line}\n`);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A bot the fake Bot API knows. */
export interface FakeBot {
  token: string;
  id: number;
  username: string;
}

/** The fake Bot API process with `count` bots. */
export async function startFakeApi(
  count: number,
): Promise<{ child: Child; apiRoot: string; control: string; bots: FakeBot[] }> {
  const child = spawnNode('fake Bot API', ['bin/run-ts.js', 'bench/telegram-api.ts', String(count)]);
  const line = (await child.waitForLine(/^(\{"apiRoot".*)$/, 30_000))[1]!;
  const { apiRoot, control, bots } = JSON.parse(line) as {
    apiRoot: string;
    control: string;
    bots: FakeBot[];
  };
  return { child, apiRoot, control, bots };
}

export async function statsOf(control: string): Promise<FakeStats> {
  const res = await fetch(`${control}/stats`, { signal: AbortSignal.timeout(5000) });
  return (await res.json()) as FakeStats;
}

/** Polls the fake's counters until `done` holds; resolves with the last ones (also on timeout). */
export async function waitStats(
  control: string,
  done: (s: FakeStats) => boolean,
  timeoutMs: number,
): Promise<{ stats: FakeStats; ok: boolean }> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const stats = await statsOf(control);
    if (done(stats)) return { stats, ok: true };
    if (performance.now() > deadline) return { stats, ok: false };
    await sleep(50);
  }
}

/**
 * Migrates the database and writes one owner with 30 days left and one bot per fake bot, its token
 * encrypted under {@link SECRET}; then closes it (PGlite serves one process). Resolves with the
 * chatbot ids, in the order of `bots`.
 */
export async function prepareBots(dataDir: string, databaseUrl: string, bots: FakeBot[]): Promise<string[]> {
  const app = await createApp(
    loadConfig({ CHARLA_DATA_DIR: dataDir, DATABASE_URL: databaseUrl, CHARLA_SECRET: SECRET }),
    { log: createLogger({ level: 'silent' }), env: {} },
  );
  try {
    const db = app.store.db;
    const expires = new Date(Date.now() + 30 * DAY);
    const ids = new Map<string, string>();
    for (let from = 0; from < bots.length; from += 250) {
      const chunk = bots.slice(from, from + 250);
      const owners = await db
        .insertInto('owners')
        .values(
          chunk.map((b) => ({ email: `${b.username}@bench.example.com`, email_verified: true, image: null })),
        )
        .returning(['id', 'email'])
        .execute();
      const ownerOf = new Map(owners.map((o) => [o.email, o.id]));
      await db
        .insertInto('user_profiles')
        .values(owners.map((o) => ({ user_id: o.id, plan: 'free', expires_at: expires })))
        .execute();
      const rows = await db
        .insertInto('chatbots')
        .values(
          chunk.map((b) => ({
            user_id: ownerOf.get(`${b.username}@bench.example.com`)!,
            business_name: `Bench ${b.username}`,
            business_description: 'Restaurante de cocina casera en el centro. Abrimos de martes a domingo.',
            idioma: 'Español',
            telegram_token: app.secrets.encrypt(b.token),
            telegram_username: b.username,
            telegram_bot_id: String(b.id),
          })),
        )
        .returning(['id', 'telegram_bot_id'])
        .execute();
      for (const r of rows) ids.set(r.telegram_bot_id!, r.id);
    }
    return bots.map((b) => ids.get(String(b.id))!);
  } finally {
    await app.close();
  }
}
