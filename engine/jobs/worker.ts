/**
 * One queue's dispatcher in one process: claims due jobs with pg-boss's `fetch` (one statement,
 * `FOR UPDATE SKIP LOCKED`, so each job goes to one process), runs up to `concurrency` handlers
 * at once, and settles each job by itself with `complete` or `fail` (pg-boss then schedules the
 * retry). It replaces pg-boss's `work()` loop, which waits a whole polling interval after every
 * batch and settles a batch as one (README, decisions: "Scheduled jobs"). It does not poll while
 * nothing is due (issue 25: pg-boss polled every queue every second, which a single-connection
 * PGlite felt): the job queue's clock (engine/jobs/index.ts) tells it when a job is due.
 */

import type PgBoss from 'pg-boss';
import { withLogContext } from '../log-context.ts';
import { type Logger, scrubTokens } from '../logger.ts';
import type { JobHandler, ResolvedDefinition } from './definition.ts';

/** A claimed job as pg-boss's `fetch({ includeMetadata: true })` returns it. */
type ClaimedJob = PgBoss.JobWithMetadata<unknown>;

/** What pg-boss 10's complete/fail/deleteJob resolve with (its types say void; src/manager.js). */
export interface CommandResponse {
  affected: number;
}

/** Why an attempt was given up without the handler settling it. */
export class JobAbandoned extends Error {
  override name = 'JobAbandoned';
}

/** Options of {@link QueueWorker}. */
export interface QueueWorkerOptions {
  /**
   * Longest wait for free handler slots before looking again, ms. While no job is due the worker
   * does not poll: it waits for {@link QueueWorker.notify} or {@link QueueWorker.dueAt} (the
   * job queue's clock, a local send, a retry).
   */
  pollIntervalMs: number;
  log: Logger;
  /** Called after a failed attempt was recorded (its retry is due later: the clock should look). */
  onFailed?: () => void;
}

/** The longest single timer the worker sets, ms (an hour; Node's own limit is 2^31-1). */
const MAX_TIMER_MS = 3_600_000;

export class QueueWorker {
  readonly #boss: PgBoss;
  readonly #definition: ResolvedDefinition;
  readonly #handler: JobHandler<unknown>;
  readonly #options: QueueWorkerOptions;
  /** Attempts running here, by job id, with how to give each up. */
  readonly #running = new Map<string, { giveUp: (reason: Error) => Promise<void>; done: Promise<void> }>();
  /** Outcomes being recorded (a slot is free as soon as its handler returns). */
  readonly #recording = new Set<Promise<void>>();
  /** Jobs whose handler succeeded, waiting for the next `complete` statement. */
  readonly #toComplete: { id: string; resolve: () => void; reject: (err: unknown) => void }[] = [];
  #completing: Promise<void> | null = null;
  #stopping = false;
  #wake: (() => void) | null = null;
  /** {@link notify} was called while no wait was under way (during a fetch, or before the first wait). */
  #notified = false;
  /** The last fetch filled every free slot: the loop waits for slots to free up, not for due jobs. */
  #waitingForSlot = false;
  #loop: Promise<void> | null = null;
  /** The earliest time a job is known to be due (epoch ms), with its timer. */
  #due: { at: number; timer: NodeJS.Timeout } | null = null;

  constructor(
    boss: PgBoss,
    definition: ResolvedDefinition,
    handler: JobHandler<unknown>,
    options: QueueWorkerOptions,
  ) {
    this.#boss = boss;
    this.#definition = definition;
    this.#handler = handler;
    this.#options = options;
  }

  /** Starts looking for due jobs. */
  start(): void {
    this.#loop ??= this.#run();
  }

  /**
   * Looks for due jobs now (a job was just sent here, or the clock saw one due). A call while the
   * worker is looking already is remembered: that look may have missed the job, so it looks again.
   */
  notify(): void {
    if (this.#waitingForSlot) return;
    if (this.#wake) this.#wake();
    else this.#notified = true;
  }

  /**
   * A job becomes due at `at` (epoch ms): the worker looks then, without polling meanwhile. Only
   * the earliest such time is kept; a time already past looks now.
   */
  dueAt(at: number): void {
    const wait = at - Date.now();
    if (wait <= 0) {
      this.notify();
      return;
    }
    if (this.#due && this.#due.at <= at) return;
    if (this.#due) clearTimeout(this.#due.timer);
    // Node fires a timer over 2^31-1 ms (24.8 days: a reminder a month ahead) after 1 ms; a long
    // wait is taken an hour at a time.
    const timer = setTimeout(
      () => {
        if (this.#due?.timer === timer) this.#due = null;
        if (Date.now() < at) this.dueAt(at);
        else this.notify();
      },
      Math.min(wait, MAX_TIMER_MS),
    );
    timer.unref();
    this.#due = { at, timer };
  }

  /**
   * Stops claiming jobs and waits up to `graceMs` for the running attempts; those still running
   * then get their signal aborted and are failed, so the retry policy hands them out again.
   */
  async stop(graceMs: number): Promise<void> {
    this.#stopping = true;
    if (this.#due) clearTimeout(this.#due.timer);
    this.#due = null;
    this.#wake?.();
    await this.#loop;
    const running = [...this.#running.values()];
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), graceMs);
    });
    const outcome = await Promise.race([Promise.all(running.map((r) => r.done)), grace]);
    clearTimeout(timer);
    if (outcome === 'late') {
      const reason = new JobAbandoned('the job queue stopped before the job finished');
      await Promise.all([...this.#running.values()].map((r) => r.giveUp(reason)));
    }
    await Promise.all(this.#recording);
  }

  /**
   * The polling loop. It never ends before `stop`: a look for due jobs that fails (the database is
   * unreachable) claims nothing, is logged, and the next poll tries again.
   */
  async #run(): Promise<void> {
    const { name, concurrency } = this.#definition;
    // The first look is the clock's (one statement for every queue, made right after the workers
    // start): a worker that fetched at once cost a statement per queue at every start.
    let first = true;
    while (!this.#stopping) {
      const free = concurrency - this.#running.size;
      let claimed = 0;
      if (free > 0 && !first) {
        this.#notified = false;
        try {
          // pg-boss's fetch returns [] on a database error (src/manager.js): the next poll retries.
          const jobs = await this.#boss.fetch<unknown>(name, { batchSize: free, includeMetadata: true });
          claimed = jobs.length;
          for (const job of jobs) this.#begin(job);
        } catch (err) {
          this.#options.log.warn({ err, queue: name }, 'could not look for due jobs; trying again');
        }
      }
      first = false;
      if (this.#stopping) break;
      // A full batch: more may be due. Look again once half the slots are free (fetching for each
      // freed slot would cost a statement per job), or after the polling interval at the latest.
      this.#waitingForSlot = free === 0 || claimed === free;
      if (this.#waitingForSlot && this.#enoughFree()) continue;
      // A job sent or found due while this look ran may be one it did not see: look again.
      if (!this.#waitingForSlot && this.#notified) continue;
      // Waiting for slots: look again when half are free, or after the interval at the latest.
      // Nothing due: no polling; the clock, a local send or a known due time wakes the loop.
      const waitForSlot = this.#waitingForSlot;
      await new Promise<void>((resolve) => {
        const timer = waitForSlot ? setTimeout(resolve, this.#options.pollIntervalMs) : undefined;
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = null;
    }
  }

  /** At least half the handler slots are free. */
  #enoughFree(): boolean {
    const { concurrency } = this.#definition;
    return concurrency - this.#running.size >= Math.ceil(concurrency / 2);
  }

  #begin(job: ClaimedJob): void {
    const controller = new AbortController();
    let settling: Promise<void> | null = null;
    // The first outcome counts: a handler that ends after its attempt was given up is ignored.
    const settle = (error: Error | null) => {
      if (!settling) {
        const recorded = this.#record(job, error);
        this.#recording.add(recorded);
        void recorded.finally(() => this.#recording.delete(recorded));
        settling = recorded;
      }
      return settling;
    };
    // The slot is free once the job is settled or the handler returned: a handler that ignores
    // its signal after its attempt was given up does not hold up the queue.
    const release = () => {
      clearTimeout(lease);
      if (this.#running.delete(job.id) && this.#waitingForSlot && this.#enoughFree()) this.#wake?.();
    };
    const giveUp = (reason: Error) => {
      controller.abort(reason);
      release();
      return settle(reason);
    };
    // Give up before pg-boss's maintenance can expire the lease and hand the job to another
    // attempt, so this attempt never settles another's.
    const leaseMs = Number(job.expireInSeconds) * 1000;
    const lease = setTimeout(
      () => void giveUp(new JobAbandoned(`the job ran past its lease of ${leaseMs / 1000} s`)),
      leaseMs - Math.min(5000, leaseMs / 10),
    );
    const done = this.#execute(job, controller.signal).then((error) => {
      release();
      return settle(error);
    });
    this.#running.set(job.id, { giveUp, done });
  }

  /** Runs the handler; resolves with its error, or null when it succeeded. */
  async #execute(job: ClaimedJob, signal: AbortSignal): Promise<Error | null> {
    try {
      const data = this.#definition.data.parse(job.data);
      const run = { id: job.id, data, attempt: job.retryCount + 1, key: job.singletonKey ?? null, signal };
      await withLogContext({ jobId: job.id, queue: this.#definition.name }, () => this.#handler(run));
      return null;
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  }

  /** Completes the job, or fails it so pg-boss schedules the retry (or keeps it failed). */
  async #record(job: ClaimedJob, error: Error | null): Promise<void> {
    const { name } = this.#definition;
    const context = { queue: name, jobId: job.id, attempt: job.retryCount + 1 };
    const { log } = this.#options;
    try {
      if (error === null) {
        await this.#complete(job.id);
        return;
      }
      // Stored in the job's row for whoever looks: no Bot API token (a network error's URL has it).
      await this.#boss.fail(name, job.id, { name: error.name, message: scrubTokens(error.message) });
      this.#options.onFailed?.();
      if (job.retryCount >= job.retryLimit)
        log.error({ ...context, err: error }, 'job failed for good: no retries left');
      else log.warn({ ...context, err: error }, 'job attempt failed; it will be retried');
    } catch (err) {
      // Not recorded: the job stays active and is retried when its lease ends.
      log.error({ ...context, err }, 'could not record the outcome of a job');
    }
  }

  /**
   * Records a success. One `complete` statement carries every job that finished in the same turn
   * of the event loop or while the last one ran (a burst costs a statement per batch, not per job).
   */
  #complete(id: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#toComplete.push({ id, resolve, reject });
      // After the current turn of the event loop, so that every handler ending in it (e.g. all
      // timers that fired together) shares the statement.
      if (!this.#completing)
        this.#completing = new Promise((next) => setImmediate(next)).then(() => this.#flushCompletions());
    });
  }

  async #flushCompletions(): Promise<void> {
    const { name } = this.#definition;
    while (this.#toComplete.length > 0) {
      const batch = this.#toComplete.splice(0);
      try {
        const ids = batch.map((b) => b.id);
        const { affected } = (await this.#boss.complete(name, ids)) as unknown as CommandResponse;
        if (affected < ids.length)
          this.#options.log.warn(
            { queue: name, jobs: ids.length - affected },
            'jobs finished after they were cancelled',
          );
        for (const b of batch) b.resolve();
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    this.#completing = null;
  }
}
