/**
 * Charla's durable scheduled jobs: the port feature plugins use for reservation reminders, hold
 * expiry, broadcasts and periodic maintenance, so that none of them sees the library underneath.
 * It stores jobs with pg-boss 10 (README, decisions: "Scheduled jobs") in its own schema, on
 * either store, and runs them with engine/jobs/worker.ts.
 *
 * Guarantees, on PGlite and on PostgreSQL shared by several processes:
 * - **Durable**: a job is a row once `send` resolves; it survives restarts and crashes.
 * - **Claimed once**: a due job is claimed by one process at a time (one statement, `FOR UPDATE
 *   SKIP LOCKED`); its lease is the definition's `leaseSeconds`.
 * - **At least once**: a job runs until one attempt succeeds or its retries are used up. A process
 *   killed mid-job leaves the job claimed; when the lease ends, the next lease check (every
 *   `leaseCheckSeconds`, by whichever process runs it first) fails that attempt, and the job is
 *   retried after its retry delay by any process running the queue (or by this one after a
 *   restart): at most lease + `leaseCheckSeconds` + retry delay + `pollIntervalMs` after the
 *   attempt began. A killed attempt counts as a failed one (with `retryLimit` 0 the job is lost).
 *   Handlers must therefore be idempotent: a handler that did its work but died before the job
 *   was recorded complete runs again.
 * - **Dedupe by key**: a job sent with a `key` gets an id derived from (queue, key); a second
 *   `send` with the same key is ignored while the first job waits, runs, retries or finished less
 *   than `keyRetentionHours` ago (pg-boss archives it then and the key is free again).
 * - **Retries**: see {@link JobDefinition} `retryLimit`, `retryDelaySeconds`, `retryBackoff`.
 * - **Timing**: a job sent in a process that runs its queue starts at its due time there (at once
 *   without `runAt`), when a handler slot is free. Every process also has a clock that looks every
 *   `pollIntervalMs` (default 5 s), in one statement for all its queues, for the next due time of
 *   each (jobs sent by another process, retries, runs of expired leases and of cron schedules), so
 *   such a job starts within `pollIntervalMs` of being due. Idle, a process runs about one
 *   statement every 2 s in all (issue 25: polling each queue every second was ~4.5/s, felt most by
 *   PGlite's single connection). `npm run bench` measures 1,000 jobs due in the same second (goal
 *   p99 ≤ 5 s).
 * - **Cron**: `schedule` keeps one cron schedule per queue (time zone aware). The processes check
 *   schedules every `cronCheckSeconds` and one of them creates each run once, so a run starts
 *   within about 2 × `cronCheckSeconds` + `pollIntervalMs` of its minute. A start that finds the
 *   same schedule stored writes nothing.
 * - **Database outages** (issue 24 §1): no loop ends and nothing ends the process. A look for due
 *   jobs that fails finds none and the next poll tries again; an outcome that cannot be recorded
 *   leaves the job claimed until its lease ends (then it is retried); pg-boss's maintenance and cron
 *   checks report their failures as `error` events, logged here (at `warn` while the database is
 *   unreachable) and retried at their next interval.
 */
import type { Transaction } from 'kysely';
import type PgBoss from 'pg-boss';
import type { z } from 'zod';
import type { Database } from '../store/database.ts';
import { isDatabaseUnavailable } from '../store/errors.ts';
import {
  createBoss,
  jobOptions,
  jobsSchemaOf,
  keyId,
  kyselyDb,
  lockedCreateQueue,
  type QueueRow,
  sameJson,
  TrackedSql,
} from './boss-sql.ts';
import { DueClock } from './clock.ts';
import { JobQueueNotStarted, type JobQueueOptions } from './options.ts';

export { JobQueueNotStarted, type JobQueueOptions } from './options.ts';

import type { JobHandler, ResolvedDefinition } from './definition.ts';
import { type CommandResponse, QueueWorker } from './worker.ts';

export { jobsSchemaOf } from './boss-sql.ts';
export {
  defineJob,
  JOB_DEFAULTS,
  type Job,
  type JobDefinition,
  type JobHandler,
  type ResolvedDefinition,
} from './definition.ts';
export { JobAbandoned } from './worker.ts';

/** Options of {@link JobQueue.send}. */
export interface SendOptions {
  /** When the job is due (default now); a past time runs it at once. */
  runAt?: Date;
  /** Idempotency key: at most one job per queue and key (see the module's guarantees). */
  key?: string;
  /** Overrides the definition's `retryLimit` for this job. */
  retryLimit?: number;
  /**
   * Inserts the job inside this Kysely transaction, so it exists only if the transaction commits
   * (e.g. a reservation and its reminders). The queue must be ready (registered here before
   * `start`, or sent to once before). On PGlite a `send` without it, made while a transaction of
   * `store.db` is open in the same flow, waits for that transaction: a deadlock.
   */
  transaction?: Transaction<Database>;
}

/** Options of {@link JobQueue.schedule}. */
export interface ScheduleOptions<T> {
  /** IANA time zone the cron expression is read in (default `UTC`), e.g. `Europe/Madrid`. */
  tz?: string;
  /** The data of every run (checked with the definition's schema). */
  data: T;
}

/**
 * Durable scheduled jobs (see the module's guarantees). Register handlers, `start()`, then
 * `send`; `stop()` on shutdown.
 */
export class JobQueue {
  #boss: PgBoss;
  readonly #options: Required<Omit<JobQueueOptions, 'schema' | 'store'>>;
  readonly #handlers = new Map<string, { definition: ResolvedDefinition; handler: JobHandler<unknown> }>();
  readonly #workers = new Map<string, QueueWorker>();
  /** Queues created in pg-boss by this instance (being created, or done: `#readyQueues`). */
  readonly #queues = new Map<string, Promise<void>>();
  readonly #readyQueues = new Set<string>();
  readonly #sql: TrackedSql;
  readonly #schema: string;
  /** Tells the workers when their next job is due (engine/jobs/clock.ts). */
  #clock: DueClock | null = null;
  #started: Promise<void> | null = null;
  #stopped = false;
  #running = false;

  constructor(options: JobQueueOptions) {
    this.#options = {
      log: options.log,
      pollIntervalMs: options.pollIntervalMs ?? 5000,
      leaseCheckSeconds: options.leaseCheckSeconds ?? 15,
      cronCheckSeconds: options.cronCheckSeconds ?? 10,
      keyRetentionHours: options.keyRetentionHours ?? 24,
      stopGraceMs: options.stopGraceMs ?? 10_000,
      work: options.work ?? true,
    };
    this.#sql = new TrackedSql(options.store.raw, options.log);
    this.#schema = options.schema ?? jobsSchemaOf(options.store.schema);
    this.#boss = this.#newBoss();
  }

  /**
   * A pg-boss instance (engine/jobs/boss-sql.ts `createBoss`) whose own timers' failures are
   * logged here and retried at their next interval (without a listener the process would end).
   */
  #newBoss(): PgBoss {
    return createBoss(this.#sql, this.#schema, this.#options, (err: unknown) => {
      if (this.#stopped) return;
      if (isDatabaseUnavailable(err))
        this.#options.log.warn({ err }, 'jobs: database unreachable; pg-boss retries at its next interval');
      else this.#options.log.error({ err }, 'jobs: pg-boss error');
    });
  }

  /**
   * Registers the handler of a kind of job in this process (before `start`). Every process that
   * should run these jobs registers it; any process may `send` them.
   * @throws Error when the queue already has a handler here or the queue is started.
   */
  register<S extends z.ZodType>(definition: ResolvedDefinition<S>, handler: JobHandler<z.output<S>>): void {
    if (this.#started) throw new Error(`jobs: register ${definition.name} before start()`);
    if (this.#handlers.has(definition.name))
      throw new Error(`jobs: ${definition.name} already has a handler`);
    this.#handlers.set(definition.name, { definition, handler: handler as JobHandler<unknown> });
  }

  /**
   * Creates or upgrades pg-boss's schema, the registered queues, the lease checks and the cron
   * checks, then starts running due jobs. Calling it again returns the same promise.
   * @throws the database's error when the schema cannot be created.
   */
  start(): Promise<void> {
    this.#started ??= this.#startOnce().catch(async (err: unknown) => {
      // A start that failed (the database went away meanwhile) may be called again: pg-boss's
      // instance cannot (its `start` stays "starting"), so the next try gets a new one.
      this.#started = null;
      const failed = this.#boss;
      this.#boss = this.#newBoss();
      await failed.stop({ graceful: false, close: false, wait: false }).catch(() => {});
      throw err;
    });
    return this.#started;
  }

  async #startOnce(): Promise<void> {
    await this.#boss.start();
    // One read of the stored queues: a start that finds them as defined writes nothing.
    const stored = new Map((await this.#boss.getQueues()).map((q) => [q.name, q]));
    for (const { definition } of this.#handlers.values())
      await this.#ensureQueue(definition, stored.get(definition.name));
    for (const { definition, handler } of this.#options.work ? this.#handlers.values() : []) {
      const worker = new QueueWorker(this.#boss, definition, handler, {
        pollIntervalMs: this.#options.pollIntervalMs,
        log: this.#options.log.child({ component: 'jobs', queue: definition.name }),
        onFailed: () => this.#clock?.lookSoon(),
      });
      this.#workers.set(definition.name, worker);
      worker.start();
    }
    if (this.#workers.size > 0) {
      this.#clock = new DueClock({
        sql: this.#sql,
        schema: this.#schema,
        workers: this.#workers,
        intervalMs: this.#options.pollIntervalMs,
        log: this.#options.log,
      });
      this.#clock.lookSoon();
    }
    this.#running = !this.#stopped;
  }

  /** True from a successful `start` until `stop` (readiness, engine/http/routes/ops.ts). */
  get running(): boolean {
    return this.#running;
  }

  /** True once `stop` was called: `start` is not tried again. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /**
   * Stores a job. Resolves with its id, or null when `key` is taken (a job with that key exists:
   * nothing was stored).
   * @throws ZodError when `data` does not match the definition's schema; {@link JobQueueNotStarted};
   *   Error when sent inside a transaction to a queue not ready yet (see `transaction`); the
   *   database's error.
   */
  async send<S extends z.ZodType>(
    definition: ResolvedDefinition<S>,
    data: z.input<S>,
    options: SendOptions = {},
  ): Promise<string | null> {
    definition.data.parse(data);
    await this.#ready(definition, options.transaction);
    const id = await this.#boss.send(definition.name, data as object, {
      ...jobOptions(definition, options),
      ...(options.transaction ? { db: kyselyDb(options.transaction) } : {}),
    });
    // Inside a transaction the job may never exist: the clock finds it once committed.
    if (id && !options.transaction) this.#workers.get(definition.name)?.dueAt(options.runAt?.getTime() ?? 0);
    return id;
  }

  /**
   * Stores many jobs of one kind in one statement (a broadcast's per-follower jobs). Items whose
   * key is taken are skipped.
   * @throws ZodError naming the first bad item's data; {@link JobQueueNotStarted}; the database's error.
   */
  async sendMany<S extends z.ZodType>(
    definition: ResolvedDefinition<S>,
    items: ReadonlyArray<{ data: z.input<S>; runAt?: Date; key?: string }>,
    options: Pick<SendOptions, 'transaction'> = {},
  ): Promise<void> {
    for (const item of items) definition.data.parse(item.data);
    await this.#ready(definition, options.transaction);
    await this.#boss.insert(
      items.map((item) => ({
        name: definition.name,
        data: item.data as object,
        ...jobOptions(definition, item),
        // insert() reads `expireInSeconds` and ISO `startAfter` (src/plans.js insertJobs).
        startAfter: item.runAt ? item.runAt.toISOString() : undefined,
      })) as PgBoss.JobInsert[],
      options.transaction ? { db: kyselyDb(options.transaction) } : {},
    );
    const worker = this.#workers.get(definition.name);
    if (worker && !options.transaction) for (const item of items) worker.dueAt(item.runAt?.getTime() ?? 0);
    else if (worker) this.#clock?.lookSoon();
  }

  /**
   * Removes the job sent with `key`, so it will not run and the key is free again. A handler
   * already running it is not interrupted; its outcome is then ignored.
   * @returns true when a job was removed.
   * @throws {@link JobQueueNotStarted}; the database's error.
   */
  async cancel(definition: ResolvedDefinition, key: string): Promise<boolean> {
    await this.#ready(definition);
    const { affected } = (await this.#boss.deleteJob(
      definition.name,
      keyId(definition.name, key),
    )) as unknown as CommandResponse;
    return affected > 0;
  }

  /**
   * Sets the queue's cron schedule (one per queue; calling again replaces it). Every process may
   * call it at start-up: the schedule is stored once and each run is created once.
   * @param cron five-field cron expression (minute resolution), e.g. `0 3 * * *`.
   * @throws ZodError for bad data; Error for a bad expression or time zone; {@link JobQueueNotStarted}.
   */
  async schedule<S extends z.ZodType>(
    definition: ResolvedDefinition<S>,
    cron: string,
    options: ScheduleOptions<z.input<S>>,
  ): Promise<void> {
    definition.data.parse(options.data);
    await this.#ready(definition);
    const tz = options.tz ?? 'UTC';
    const scheduleOptions = { tz, ...jobOptions(definition, {}) };
    // Every process calls this at start-up: the same schedule already stored is not written again.
    // pg-boss's types leave out the `timezone` column (src/plans.js `getSchedules`: SELECT *).
    const stored = (await this.#boss.getSchedules()) as (PgBoss.Schedule & { timezone?: string })[];
    const same = stored.some(
      (s) =>
        s.name === definition.name &&
        s.cron === cron &&
        s.timezone === tz &&
        sameJson(s.data, options.data) &&
        sameJson(s.options, scheduleOptions),
    );
    if (same) return;
    await this.#boss.schedule(definition.name, cron, options.data as object, scheduleOptions);
  }

  /** Removes the queue's cron schedule (runs already created still run). */
  async unschedule(definition: ResolvedDefinition): Promise<void> {
    await this.#ready(definition);
    await this.#boss.unschedule(definition.name);
  }

  /**
   * Stops: no more jobs are claimed here; running handlers get `stopGraceMs` to finish, then
   * their signal aborts and their jobs are failed (so another process, or the next start, retries
   * them after their retry delay). Resolves when pg-boss has stopped and none of its statements is
   * still running, so the store can be closed next. Calling it again does nothing.
   */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#running = false;
    if (!this.#started) return;
    await this.#started.catch(() => {});
    await this.#clock?.stop();
    await Promise.all([...this.#workers.values()].map((w) => w.stop(this.#options.stopGraceMs)));
    await this.#boss.stop({ graceful: true, close: false, wait: true, timeout: 1000 });
    await this.#sql.close();
  }

  /**
   * Waits for `start` and creates the queue if needed. Inside a caller's transaction nothing may be
   * waited for on the store (on PGlite that would wait for the transaction itself): the queue must
   * be ready already.
   */
  async #ready(definition: ResolvedDefinition, transaction?: Transaction<Database>): Promise<void> {
    if (!this.#started || this.#stopped) throw new JobQueueNotStarted();
    if (transaction && !this.#readyQueues.has(definition.name))
      throw new Error(
        `jobs: ${definition.name} can be sent inside a transaction only once the queue is started with it ` +
          'registered (or after one send outside a transaction)',
      );
    await this.#started;
    await this.#ensureQueue(definition);
  }

  /**
   * Creates the queue once (or updates its defaults: cron runs take them from the queue). `stored`
   * is the queue as start-up read it: when it matches the definition, nothing is written.
   */
  #ensureQueue(definition: ResolvedDefinition, stored?: QueueRow): Promise<void> {
    let created = this.#queues.get(definition.name);
    if (!created) {
      const queue: PgBoss.Queue = {
        name: definition.name,
        retryLimit: definition.retryLimit,
        retryDelay: definition.retryDelaySeconds,
        retryBackoff: definition.retryBackoff,
        expireInSeconds: definition.leaseSeconds,
      };
      const current =
        stored &&
        stored.retryLimit === queue.retryLimit &&
        stored.retryDelay === queue.retryDelay &&
        stored.retryBackoff === queue.retryBackoff &&
        stored.expireInSeconds === queue.expireInSeconds;
      created = (async () => {
        if (!current) {
          if (!stored) await this.#sql.executeSql(lockedCreateQueue(this.#schema, definition.name, queue));
          await this.#boss.updateQueue(definition.name, queue);
        }
        this.#readyQueues.add(definition.name);
      })();
      created.catch(() => this.#queues.delete(definition.name));
      this.#queues.set(definition.name, created);
    }
    return created;
  }
}
