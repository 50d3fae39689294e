/**
 * Child process of bench/telegram.ts: resident memory of connected Telegram bots. It opens a data
 * dir prepared with `bots` bots that have stored tokens and owners with days left, builds the app
 * and its HTTP server as `charla serve` does (without listening), and measures
 * `process.memoryUsage()` after a GC; then it starts the channels (every bot connects in
 * long-polling mode against the fake Bot API), waits until every bot has an idle `getUpdates` hanging
 * on the fake, and measures again. Prints one JSON line, `{"memory":…}`, and exits.
 *
 * `node --expose-gc bin/run-ts.js bench/telegram-memory.ts <bots> <fake control URL>` with
 * CHARLA_DATA_DIR, DATABASE_URL, CHARLA_SECRET, TELEGRAM_API_ROOT, TELEGRAM_MODE=polling and
 * TELEGRAM_POLL_TIMEOUT_S in the environment.
 */
import { createApp } from '../cli/app.ts';
import { loadConfig } from '../engine/config.ts';
import { createLogger } from '../engine/logger.ts';
import type { FakeStats } from './telegram-api.ts';

const bots = Number(process.argv[2]);
const control = process.argv[3]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Memory after the garbage collector has run (when --expose-gc allows it). */
async function settled(): Promise<NodeJS.MemoryUsage> {
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    await sleep(200);
  }
  return process.memoryUsage();
}

async function fakeStats(): Promise<FakeStats> {
  const res = await fetch(`${control}/stats`);
  return (await res.json()) as FakeStats;
}

const app = await createApp(loadConfig(), { log: createLogger({ level: 'error' }) });
await app.http();
const telegram = app.registry.adapters.get('telegram');
if (!telegram) throw new Error('no telegram adapter registered');
const before = await settled();
const started = performance.now();
await app.startChannels();
const connectMs = performance.now() - started;
const deadline = performance.now() + 60_000;
let stats = await fakeStats();
while (stats.polling < bots && performance.now() < deadline) {
  await sleep(100);
  stats = await fakeStats();
}
const pollingMs = performance.now() - started;
await sleep(1000); // every loop is now inside its long poll
const after = await settled();
stats = await fakeStats();
const result = {
  memory: {
    gc: typeof globalThis.gc === 'function',
    before,
    after,
    connected: telegram.connections?.connected().length ?? 0,
    polling: stats.polling,
    getUpdates: stats.calls.getUpdates ?? 0,
    connectMs,
    pollingMs,
  },
};
process.stdout.write(`${JSON.stringify(result)}\n`);
await app.close();
process.exit(0);
