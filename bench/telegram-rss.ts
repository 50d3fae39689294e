/**
 * The memory part of the Telegram benchmark (issue 5): a child process (bench/telegram-memory.ts)
 * connects MEMORY_BOTS bots by long polling against the fake Bot API and reports its RSS after a GC
 * before connecting and once every poll is open; goal: 1,000 bots under 300 MB (300 KB per bot).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnNode } from './procs.ts';
import { fmtMs, fmtRate, mark, table } from './report.ts';
import { log, prepareBots, SECRET, startFakeApi } from './telegram-setup.ts';

/** Bots connected for the measurement (BENCH_TG_MEMORY_BOTS; 0 skips it). */
export const MEMORY_BOTS = Number(process.env.BENCH_TG_MEMORY_BOTS ?? 1000);
const GOAL = { memoryMb: 300, memoryKbPerBot: 300 };

export /** Resident memory of 1,000 bots connected by long polling (PGlite). */
async function benchMemory(): Promise<{ text: string; summary: string; broken: string[] }> {
  const broken: string[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'charla-bench-tg-mem-'));
  const api = await startFakeApi(MEMORY_BOTS);
  try {
    log(`Telegram memory: ${MEMORY_BOTS} owners and bots`);
    await prepareBots(dataDir, '', api.bots);
    log(`Telegram memory: connecting ${MEMORY_BOTS} bots by long polling`);
    const child = spawnNode(
      'telegram memory',
      ['bin/run-ts.js', 'bench/telegram-memory.ts', String(MEMORY_BOTS), api.control],
      {
        CHARLA_DATA_DIR: dataDir,
        DATABASE_URL: '',
        CHARLA_SECRET: SECRET,
        LOG_LEVEL: 'error',
        PUBLIC_URL: '',
        TELEGRAM_MODE: 'polling',
        TELEGRAM_POLL_TIMEOUT_S: '25',
        TELEGRAM_API_ROOT: api.apiRoot,
      },
      ['--expose-gc'],
    );
    let line: string;
    try {
      line = (await child.waitForLine(/^(\{"memory".*)$/, 120_000))[1]!;
    } finally {
      await child.stop(15_000);
    }
    const m = (JSON.parse(line) as { memory: MemoryResult }).memory;
    if (m.connected < MEMORY_BOTS)
      broken.push(`memory: only ${m.connected} of ${MEMORY_BOTS} bots connected`);
    if (m.polling < MEMORY_BOTS) broken.push(`memory: only ${m.polling} of ${MEMORY_BOTS} bots polled`);
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
    const added = m.after.rss - m.before.rss;
    const kbPerBot = added / 1024 / MEMORY_BOTS;
    const delta = (k: keyof NodeJS.MemoryUsage) =>
      `${mb(m.before[k])} → ${mb(m.after[k])}  (${((m.after[k] - m.before[k]) / 1024 / MEMORY_BOTS).toFixed(1)} KB per bot)`;
    const rows: string[][] = [
      ['', 'Charla', 'goal'],
      [
        `RSS added by ${fmtRate(MEMORY_BOTS)} bots`,
        mb(added),
        `< ${GOAL.memoryMb} MB ${mark(added / 1024 / 1024 < GOAL.memoryMb)}`,
      ],
      [
        '    per bot',
        `${kbPerBot.toFixed(1)} KB`,
        `< ${GOAL.memoryKbPerBot} KB ${mark(kbPerBot < GOAL.memoryKbPerBot)}`,
      ],
      ['RSS of the process, before → after', delta('rss'), ''],
      ['    JS heap used', delta('heapUsed'), ''],
      ['    external + array buffers', `${mb(m.before.external)} → ${mb(m.after.external)}`, ''],
      ['connected / polling', `${fmtRate(m.connected)} / ${fmtRate(m.polling)}`, ''],
      ['time to connect all / to their first poll', `${fmtMs(m.connectMs)} / ${fmtMs(m.pollingMs)}`, ''],
    ];
    const note = `  RSS after a GC${m.gc ? '' : ' (not forced: no --expose-gc)'}, with the app and its HTTP server built as \`charla serve\` does; embedded PGlite in the same process.`;
    const text = `\nTelegram memory — ${fmtRate(MEMORY_BOTS)} bots connected by long polling, idle (getUpdates timeout 25 s)\n${table(rows)}\n${note}\n`;
    const summary = `Telegram memory: ${fmtRate(MEMORY_BOTS)} idle long-polling bots add ${mb(added)} RSS (${kbPerBot.toFixed(1)} KB per bot)`;
    return { text, summary, broken };
  } finally {
    await api.child.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface MemoryResult {
  gc: boolean;
  before: NodeJS.MemoryUsage;
  after: NodeJS.MemoryUsage;
  connected: number;
  polling: number;
  connectMs: number;
  pollingMs: number;
}
