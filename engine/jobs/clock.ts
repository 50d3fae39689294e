/**
 * The job queue's clock (issue 25): instead of each queue polling for due jobs every second, one
 * statement every `intervalMs` reads the next due time of every queue this process runs, and each
 * worker gets a timer for it (engine/jobs/worker.ts `dueAt`). Jobs sent here tell their worker
 * directly; the clock finds the others: jobs sent by another process, retries, the runs of expired
 * leases and of cron schedules.
 */
import type { Logger } from '../logger.ts';
import type { TrackedSql } from './boss-sql.ts';
import type { QueueWorker } from './worker.ts';

/** What {@link DueClock} needs. */
export interface DueClockOptions {
  /** pg-boss's SQL (the store's raw SQL, counted). */
  sql: Pick<TrackedSql, 'executeSql'>;
  /** pg-boss's schema (`pgboss` or `<store schema>_pgboss`). */
  schema: string;
  /** The workers of this process, by queue name. */
  workers: ReadonlyMap<string, Pick<QueueWorker, 'dueAt'>>;
  /** Time between two looks, ms. */
  intervalMs: number;
  log: Logger;
}

export class DueClock {
  readonly #options: DueClockOptions;
  #timer: NodeJS.Timeout | null = null;
  #looking: Promise<void> | null = null;
  #stopped = false;

  constructor(options: DueClockOptions) {
    this.#options = options;
  }

  /**
   * Reads the earliest due time of each queue's waiting jobs (pg-boss's `job_i5` index: name,
   * start_after, state < active) in one statement and tells its worker. A failed look is logged
   * and the next one tries again.
   */
  async #look(): Promise<void> {
    const { sql, schema, workers, log } = this.#options;
    const names = [...workers.keys()];
    try {
      const { rows } = await sql.executeSql(
        `SELECT name, (EXTRACT(EPOCH FROM min(start_after)) * 1000)::float8 AS due_at FROM ${schema}.job ` +
          `WHERE name IN (${names.map((_, i) => `$${i + 1}`).join(', ')}) AND state < 'active' GROUP BY name`,
        names,
      );
      for (const row of rows as { name: string; due_at: number | string }[])
        workers.get(row.name)?.dueAt(Number(row.due_at));
    } catch (err) {
      if (!this.#stopped) log.warn({ err }, 'jobs: could not look for due jobs; trying again');
    }
  }

  /** Looks now (after a look under way), then every `intervalMs`. */
  lookSoon(): void {
    if (this.#stopped || this.#options.workers.size === 0) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const run = async () => {
      await this.#looking;
      if (this.#stopped) return;
      this.#looking = this.#look();
      await this.#looking;
      this.#looking = null;
      if (this.#stopped || this.#timer) return;
      this.#timer = setTimeout(() => this.lookSoon(), this.#options.intervalMs);
      this.#timer.unref();
    };
    void run();
  }

  /** Stops looking; resolves once a look under way has ended. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#looking;
  }
}
