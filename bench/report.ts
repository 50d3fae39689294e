/** The tables `npm run bench` prints. */
import type { CpuUsage } from './cpu.ts';
import type { LoadResult } from './load.ts';
import {
  GOAL,
  LABEL,
  MAX_CONNECTIONS,
  SECONDS,
  STEADY_CONNECTIONS,
  STEADY_RATE,
  type StoreName,
} from './settings.ts';

export type WithCpu = LoadResult & { cpu: CpuUsage };
export interface Measured {
  max: WithCpu;
  steady: WithCpu;
}

// ── formatting ────────────────────────────────────────────────────────────────────────────────

export const fmtRate = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
export const fmtMs = (n: number | undefined) =>
  n === undefined || !Number.isFinite(n) ? '–' : `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`;
export const fmtPct = (n: number) => (Number.isFinite(n) ? `${Math.round(n * 100)}%` : '–');
export const mark = (ok: boolean) => (ok ? '✓' : '✗');
export const faults = (r: LoadResult) => `${r.errors} / ${r.timeouts} / ${r.non2xx} / ${r.mismatches}`;
/** CPU ms per answered message. */
export const perMsg = (cpuSeconds: number | undefined, r: LoadResult) =>
  cpuSeconds === undefined || r.ok === 0 ? '–' : `${((cpuSeconds * 1000) / r.ok).toFixed(2)} ms`;
/** CPU seconds over a window, as a share of one core. */
export const ofCore = (cpuSeconds: number | undefined, u: CpuUsage) =>
  cpuSeconds === undefined ? '–' : `${Math.round((cpuSeconds / u.seconds) * 100)}%`;

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? '')].length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join('   ')
        .trimEnd(),
    )
    .join('\n');
}

export function report(store: StoreName, charla: Measured, floor: Measured, replyBytes: number): string {
  const ratio = charla.max.rate / floor.max.rate;
  const ofFloor = GOAL.ofFloor[store];
  // Issue 25: ≥ 1,000 msg/s on PostgreSQL where the floor allows it (its half reaches 1,000);
  // the p99 goal is PostgreSQL's too. PGlite has its share of the floor only.
  const rateApplies = store === 'postgres' && floor.max.rate * GOAL.ofFloor.postgres >= GOAL.rate;
  const rateOk = charla.max.rate >= GOAL.rate;
  const ratioOk = ratio >= ofFloor;
  const p99Ok = charla.steady.p99 < GOAL.p99;
  const bad = (r: LoadResult) => r.errors + r.timeouts + r.non2xx + r.mismatches;
  const both = (f: (m: Measured) => string) => [f(charla), f(floor)];
  const rows: string[][] = [
    ['', 'Charla', 'floor', 'Charla/floor', 'goal'],
    [
      `(a) msgs/s, ${MAX_CONNECTIONS} connections`,
      ...both((m) => fmtRate(m.max.rate)),
      fmtPct(ratio),
      `${rateApplies ? `≥ ${fmtRate(GOAL.rate)} ${mark(rateOk)}   ` : ''}≥ ${fmtPct(ofFloor)} of floor ${mark(ratioOk)}`,
    ],
    ['    latency p50 / p99', ...both((m) => `${fmtMs(m.max.p50)} / ${fmtMs(m.max.p99)}`), '', ''],
    [
      `(b) p50 at ${STEADY_RATE} msgs/s, ${STEADY_CONNECTIONS} conns`,
      ...both((m) => fmtMs(m.steady.p50)),
      '',
      '',
    ],
    [
      `    p99 at ${STEADY_RATE} msgs/s`,
      ...both((m) => fmtMs(m.steady.p99)),
      '',
      store === 'postgres' ? `< ${GOAL.p99} ms ${mark(p99Ok)}` : '',
    ],
    ['    max', ...both((m) => fmtMs(m.steady.max)), '', ''],
    [
      '    p50 / p99 from actual send',
      ...both((m) => `${fmtMs(m.steady.serviceP50)} / ${fmtMs(m.steady.serviceP99)}`),
      '',
      '',
    ],
    ['    achieved msgs/s', ...both((m) => fmtRate(m.steady.rate)), '', ''],
    [
      'errors / timeouts / non-2xx / mismatches (a)',
      ...both((m) => faults(m.max)),
      '',
      `none ${mark(bad(charla.max) + bad(charla.steady) === 0)}`,
    ],
    ['                                         (b)', ...both((m) => faults(m.steady)), '', ''],
    ['CPU per message in (a): server process', ...both((m) => perMsg(m.max.cpu.server, m.max)), '', ''],
    ...(store === 'postgres'
      ? [['                        PostgreSQL', perMsg(charla.max.cpu.postgres, charla.max), '', '', '']]
      : []),
    ['                        fake LLM', ...both((m) => perMsg(m.max.cpu.fake, m.max)), '', ''],
    ['CPU in (a), % of one core: server', ...both((m) => ofCore(m.max.cpu.server, m.max.cpu)), '', ''],
    ['    other processes on the machine', ...both((m) => ofCore(m.max.cpu.other, m.max.cpu)), '', ''],
  ];
  const goalNote =
    store === 'postgres' ? '' : '  (the goals are set for PostgreSQL; shown here for reference)\n';
  const notes = [
    "  (b) latency counts from each message's scheduled send, so time queued behind a slow server counts;",
    '  "from actual send" leaves the queueing out. The fake LLM costs more per Charla message because',
    '  Charla sends it the system prompt and the history; the floor sends one short user message.',
  ];
  return `\n${LABEL[store]} — reply ${replyBytes} bytes, ${SECONDS} s per measurement\n${goalNote}${table(rows)}\n${notes.join('\n')}\n`;
}

/** What a bench section gives back: its printed text, its summary lines, and whether a goal failed. */
export interface SectionResult {
  text: string;
  summaries?: string[];
  failed: boolean;
}

/**
 * Runs one section alone, as `BENCH_ONLY=<name> npm run bench` does: prints its text and summary,
 * then exits 0 when it passed, 1 when a goal failed or it threw (the error printed under `title`).
 */
export async function runAlone(title: string, section: () => Promise<SectionResult>): Promise<never> {
  let code = 1;
  try {
    const { text, summaries = [], failed } = await section();
    process.stdout.write(text);
    if (summaries.length) process.stdout.write(`\nSummary\n${summaries.map((s) => `  ${s}`).join('\n')}\n`);
    code = failed ? 1 : 0;
  } catch (err) {
    process.stdout.write(`\n${title}: FAILED — ${(err as Error).stack ?? err}\n`);
  }
  process.exit(code);
}
