/** Settings of `npm run bench` (environment) and its goals (issue 2). */
import { resolve } from 'node:path';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
export const STORES = (process.env.BENCH_STORES ?? 'pglite,postgres').split(',').map((s) => s.trim());
export const PG_ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const PG_DB = 'charla_bench';
export const CPU_PROF = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;

export const MAX_CONNECTIONS = 50;
export const STEADY_RATE = 500;
export const STEADY_CONNECTIONS = 10;
export const GOAL = {
  /** msg/s on PostgreSQL, where the floor allows it (half the floor's rate reaches it). */
  rate: 1000,
  /** Charla's share of the floor's msg/s on each store (issue 25). */
  ofFloor: { postgres: 0.5, pglite: 0.3 } as Record<'pglite' | 'postgres', number>,
  /** p99 at a steady 500 msg/s over 10 connections, ms, on PostgreSQL. */
  p99: 25,
  coldStart: 1500,
};
/** Matches no keyword of the demo files, so every turn calls the LLM. */
export const MESSAGE = '¿A qué hora abrís el sábado?';

export type StoreName = 'pglite' | 'postgres';
export const LABEL: Record<StoreName, string> = { pglite: 'PGlite (embedded)', postgres: 'PostgreSQL' };

/**
 * The environment of a benchmarked `charla serve` on PGlite in `dataDir`, its LLM at `llmBaseURL`
 * (the bench's fake), warnings only, no public URL. Callers set `DATABASE_URL` for PostgreSQL.
 */
export function charlaEnv(dataDir: string, llmBaseURL: string): NodeJS.ProcessEnv {
  return {
    CHARLA_DATA_DIR: dataDir,
    DATABASE_URL: '',
    OPENAI_BASE_URL: llmBaseURL,
    OPENAI_API_KEY: 'x',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: '',
    // Issue 24 §2: the benchmark measures throughput, not the per-visitor limits.
    CHARLA_RATE_LIMITS: 'off',
  };
}
