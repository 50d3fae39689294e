/**
 * The Telegram webhook section's load shape (bots, chats, burst and steady rate), what one run of
 * it measures, and the table it prints (bench/telegram.ts runs it).
 */
import type { CpuUsage } from './cpu.ts';
import type { LoadResult } from './load.ts';
import { faults, fmtMs, fmtRate, mark, ofCore, table } from './report.ts';
import { LABEL, type StoreName } from './settings.ts';

export const BOTS = 100;
export const CHATS_PER_BOT = 50;
export const BURST = Number(process.env.BENCH_TG_BURST ?? 1500);
export const BURST_CONNECTIONS = 50;
export const RATE = Number(process.env.BENCH_TG_RATE ?? 50);
export const STEADY_CONNECTIONS = 20;
/** Issue 5's goal for webhooks: acknowledgement p99 < 50 ms (memory: bench/telegram-rss.ts). */
export const GOAL = { ackP99: 50 };

/** What one webhook run measured. */
export interface WebhookResult {
  burst: LoadResult;
  burstHandled: number;
  /** Updates handled end to end per second, first webhook → last reply. */
  handledRate: number;
  burstMs: number;
  cpu: { server: number | undefined; postgres: number | undefined; fakeApi: number | undefined };
  /** CPU use of the whole window of (a) and of (b). */
  burstCpu: CpuUsage;
  steadyCpu: CpuUsage;
  steady: LoadResult;
  steadyHandled: number;
  /** Replies that reached the fake Bot API while (b) was sending, per second. */
  steadyHandledRate: number;
  /** From the end of (b)'s sending to its last reply, ms. */
  steadyTailMs: number;
  wrongTexts: Record<string, number>;
}

/** "answered / acknowledged", with the timed-out webhooks (which the server may still have stored). */
const answered = (handled: number, load: LoadResult) =>
  `${fmtRate(handled)} / ${fmtRate(load.ok)}${load.timeouts ? ` + ${fmtRate(load.timeouts)} timed out` : ''}`;

/** The section's table for one store. */
export function webhookReport(store: StoreName, r: WebhookResult): string {
  const perUpdate = (cpuSeconds: number | undefined) =>
    cpuSeconds === undefined || r.burstHandled === 0
      ? '–'
      : `${((cpuSeconds * 1000) / r.burstHandled).toFixed(2)} ms`;
  const rows: string[][] = [
    ['', 'Charla', 'goal'],
    [
      `(a) burst of ${fmtRate(BURST)} updates, ${BURST_CONNECTIONS} connections: acknowledged/s`,
      fmtRate(r.burst.rate),
      '',
    ],
    ['    acknowledgement p50 / p99', `${fmtMs(r.burst.p50)} / ${fmtMs(r.burst.p99)}`, ''],
    ['    handled end to end, updates/s (first webhook → last reply)', fmtRate(r.handledRate), ''],
    ['    answered / acknowledged', answered(r.burstHandled, r.burst), ''],
    ['    CPU per update (ack + answer): server process', perUpdate(r.cpu.server), ''],
    ...(store === 'postgres'
      ? [['                                    PostgreSQL', perUpdate(r.cpu.postgres), '']]
      : []),
    ['                                    fake Bot API', perUpdate(r.cpu.fakeApi), ''],
    [
      `(b) ${RATE} updates/s, ${STEADY_CONNECTIONS} connections: acknowledgement p50`,
      fmtMs(r.steady.p50),
      '',
    ],
    [
      '    acknowledgement p99',
      fmtMs(r.steady.p99),
      `< ${GOAL.ackP99} ms ${mark(r.steady.p99 < GOAL.ackP99)}`,
    ],
    ['    max', fmtMs(r.steady.max), ''],
    ['    p50 / p99 from actual send', `${fmtMs(r.steady.serviceP50)} / ${fmtMs(r.steady.serviceP99)}`, ''],
    ['    replies/s while sending', fmtRate(r.steadyHandledRate), ''],
    ['    last reply after the last update', fmtMs(r.steadyTailMs), ''],
    ['    answered / acknowledged', answered(r.steadyHandled, r.steady), ''],
    [
      'CPU, % of one core: server process (a) / (b)',
      `${ofCore(r.burstCpu.server, r.burstCpu)} / ${ofCore(r.steadyCpu.server, r.steadyCpu)}`,
      '',
    ],
    [
      '    other processes on the machine (a) / (b)',
      `${ofCore(r.burstCpu.other, r.burstCpu)} / ${ofCore(r.steadyCpu.other, r.steadyCpu)}`,
      '',
    ],
    ['errors / timeouts / non-2xx / mismatches (a)', faults(r.burst), ''],
    ['                                         (b)', faults(r.steady), ''],
  ];
  const notes = [
    '  An update is acknowledged (200) once it is stored in the inbox; it is answered later, in order per chat.',
    '  "Handled" counts the sendMessage calls the fake Bot API received; the replies are the fake LLM\'s.',
  ];
  return `\nTelegram webhooks on ${LABEL[store]} — ${BOTS} bots, ${CHATS_PER_BOT} chats each, zero-latency LLM\n${table(rows)}\n${notes.join('\n')}\n`;
}
