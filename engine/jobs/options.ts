/** The options of the job queue (engine/jobs/index.ts) and its not-started error. */
import type { Logger } from '../logger.ts';
import type { Store } from '../store/connect.ts';

/** Options of {@link JobQueue}. */
export interface JobQueueOptions {
  /** The store: pg-boss runs its SQL through `store.raw` and names its schema after `store.schema`. */
  store: Pick<Store, 'raw' | 'schema'>;
  log: Logger;
  /** pg-boss's schema; default `pgboss`, or `<store schema>_pgboss` when the store's is not `public`. */
  schema?: string;
  /**
   * Time between the clock's looks for due jobs (one statement for every queue), ms (default
   * 5,000); also the longest wait for a free handler slot before looking again.
   */
  pollIntervalMs?: number;
  /** Time between checks for expired leases (and archiving), seconds (default 15). */
  leaseCheckSeconds?: number;
  /** Time between checks of cron schedules, seconds (1 to 45; default 10). */
  cronCheckSeconds?: number;
  /** How long a finished job keeps its key taken, hours (default 24). */
  keyRetentionHours?: number;
  /** How long `stop` waits for running handlers before giving them up, ms (default 10,000). */
  stopGraceMs?: number;
  /**
   * Run jobs here (default true). False on a `CHARLA_ROLE=web` node (issue 26 §2): the queue is
   * started so it can `send`, but it claims nothing, checks no leases and creates no cron runs.
   */
  work?: boolean;
}

/** Thrown by `send`, `cancel` and `schedule` before {@link JobQueue.start}. */
export class JobQueueNotStarted extends Error {
  override name = 'JobQueueNotStarted';
  constructor() {
    super('jobs: the job queue is not started (call start() first)');
  }
}
