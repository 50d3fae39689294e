/**
 * What a kind of job is (its queue name, the zod schema of its data, its lease and retry policy)
 * and what its handler receives. One {@link JobDefinition} is the single source of the data's
 * type for `send`, `schedule` and the handler (engine/jobs/index.ts).
 */
import type { z } from 'zod';

/** Queue names: letters, digits, `_`, `.`, `-`; at most 100 characters (e.g. `reservations.reminder`). */
const QUEUE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

/** pg-boss 10 refuses an expiration of 24 hours or more (src/attorney.js, MAX_EXPIRATION_HOURS). */
const MAX_LEASE_SECONDS = 24 * 60 * 60 - 1;

/** Defaults of a {@link JobDefinition}'s optional fields. */
export const JOB_DEFAULTS = {
  leaseSeconds: 60,
  retryLimit: 5,
  retryDelaySeconds: 10,
  retryBackoff: true,
  concurrency: 50,
} as const;

/**
 * A kind of job. The data must survive JSON (strings, numbers, booleans, null, arrays, plain
 * objects): it is stored as jsonb and parsed with `data` again before the handler runs, so use
 * ISO strings for instants, not `Date`s.
 */
export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  /** The queue's name; letters, digits, `_`, `.`, `-`, at most 100 characters. */
  name: string;
  /** Schema of the job's data: checked on `send`/`schedule` and again before the handler runs. */
  data: S;
  /**
   * How long one attempt may hold the job, seconds (1 to 86,399; default 60). The handler's
   * `signal` aborts shortly before (at 90 % of the lease, at most 5 s before its end) and the
   * attempt is then counted as failed; a process that dies holding the job loses it when the lease
   * ends, and another attempt follows (see JobQueue). A job that needs longer should be split
   * (e.g. a broadcast: one job per follower).
   */
  leaseSeconds?: number;
  /**
   * Retries after a failed attempt (a throw, a lease that ran out, a process that died or
   * stopped); default 5, so at most 6 attempts. After the last one the job stays `failed`.
   */
  retryLimit?: number;
  /** Wait before the first retry, seconds (default 10). */
  retryDelaySeconds?: number;
  /**
   * Exponential backoff with jitter (default true): retry n (1-based) waits between
   * d·2^(n−1) and d·2^n seconds, d = `retryDelaySeconds` (pg-boss 10, src/plans.js `failJobs`).
   * False: every retry waits d.
   */
  retryBackoff?: boolean;
  /**
   * Handlers of this queue running at once in one process (default 50). Jobs due together start
   * as slots free up: n jobs of s seconds each take about n × s ÷ concurrency seconds to all start
   * (1,000 reminders of 100 ms each: ~2 s at 50, ~12 s at 10). Lower it for handlers that must not
   * run many at once (a broadcast from one bot, against the channel's rate limit).
   */
  concurrency?: number;
}

/** A job as its handler gets it. */
export interface Job<T> {
  /** The job's id (a UUID; the same on every attempt). */
  id: string;
  /** Its data, parsed with the definition's schema. */
  data: T;
  /** 1 on the first attempt, 2 on the first retry, … */
  attempt: number;
  /** The key it was sent with, or null. */
  key: string | null;
  /**
   * Aborts when this attempt should give up: its lease is about to end, or the queue is stopping
   * and the stop's grace period is over. Pass it to fetch calls and check it between steps.
   */
  signal: AbortSignal;
}

/** Runs one attempt of a job; throwing (or rejecting) fails the attempt and a retry follows. */
export type JobHandler<T> = (job: Job<T>) => Promise<void>;

/** A definition with every default applied. */
export type ResolvedDefinition<S extends z.ZodType = z.ZodType> = Required<JobDefinition<S>>;

/**
 * Checks a definition and fills in its defaults.
 * @throws Error naming the bad field (a queue name with other characters, a lease of 24 h or
 *   more, a negative retry limit, a concurrency under 1).
 */
export function defineJob<S extends z.ZodType>(definition: JobDefinition<S>): ResolvedDefinition<S> {
  const resolved = { ...JOB_DEFAULTS, ...definition };
  const wholeAtLeast = (value: number, min: number) => Number.isInteger(value) && value >= min;
  if (!QUEUE_NAME.test(resolved.name))
    throw new Error(`jobs: queue name "${resolved.name}" must be letters, digits, _ . - (at most 100)`);
  if (!wholeAtLeast(resolved.leaseSeconds, 1) || resolved.leaseSeconds > MAX_LEASE_SECONDS)
    throw new Error(
      `jobs: ${resolved.name}: leaseSeconds must be a whole number from 1 to ${MAX_LEASE_SECONDS}`,
    );
  if (!wholeAtLeast(resolved.retryLimit, 0))
    throw new Error(`jobs: ${resolved.name}: retryLimit must be a whole number ≥ 0`);
  if (!wholeAtLeast(resolved.retryDelaySeconds, resolved.retryBackoff ? 1 : 0))
    throw new Error(
      `jobs: ${resolved.name}: retryDelaySeconds must be a whole number ≥ 1 with backoff, ≥ 0 without`,
    );
  if (!wholeAtLeast(resolved.concurrency, 1))
    throw new Error(`jobs: ${resolved.name}: concurrency must be a whole number ≥ 1`);
  return resolved;
}
