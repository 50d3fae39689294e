/**
 * pg-boss's side of the job queue (engine/jobs/index.ts): its `db` adapters (the store's raw SQL,
 * counted so `stop` can wait for it; a caller's Kysely transaction) and what start-up compares
 * with the queues and schedules pg-boss has stored.
 */
import { CompiledQuery, type Transaction } from 'kysely';
import PgBoss from 'pg-boss';
import { v5 as uuidv5 } from 'uuid';
import type { Logger } from '../logger.ts';
import type { RawSql } from '../store/connect.ts';
import type { Database } from '../store/database.ts';
import type { ResolvedDefinition } from './definition.ts';

/** Namespace of the ids derived from job keys (UUID v5). */
const KEY_NAMESPACE = 'f3b9c1de-6a47-5b52-9c1e-6a1c0c7a4d21';

/** A queue as pg-boss's `getQueues` reads it (pg-boss 10 src/plans.js `getQueues`). */
export interface QueueRow {
  name: string;
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
  expireInSeconds?: number;
}

/** True when two JSON values (as stored in pg-boss's json columns) are the same, key order aside. */
export function sameJson(a: unknown, b: unknown): boolean {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v as Record<string, unknown>)
              .filter(([, x]) => x !== undefined)
              .sort(([x], [y]) => x.localeCompare(y))
              .map(([k, x]) => [k, canonical(x instanceof Date ? x.toISOString() : x)]),
          )
        : v;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** pg-boss's `db` adapter over a Kysely transaction (both dialects run one statement with params). */
export function kyselyDb(transaction: Transaction<Database>): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[]) {
      const result = await transaction.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: result.rows as unknown[] };
    },
  };
}

/** Prefix of pg-boss's own queues (its cron's `__pgboss__send-it`). */
const INTERNAL_QUEUE = '__pgboss__';

/**
 * `store.raw` as pg-boss's `db`, counting statements under way so `stop` can wait for them, and
 * refusing new ones once closed (pg-boss's timers may still fire once while it stops).
 *
 * pg-boss settles the jobs of its own cron queue without waiting for the statement (pg-boss 10
 * src/manager.js `watch`: `this.complete(…)` and `this.fail(…)` are not awaited), so a database
 * error there would be an unhandled rejection, which ends the process. Those statements (on a
 * `__pgboss__` queue, with the three values of complete and fail: name, ids, output) therefore
 * never fail: an error is logged and answered as "0 jobs settled"; the job stays claimed and its
 * lease check retries it (pg-boss's singleton key keeps a cron run from being created twice).
 */
export class TrackedSql implements PgBoss.Db {
  readonly #raw: RawSql;
  readonly #log: Logger;
  readonly #running = new Set<Promise<unknown>>();
  #closed = false;

  constructor(raw: RawSql, log: Logger) {
    this.#raw = raw;
    this.#log = log;
  }

  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> {
    if (this.#closed) return Promise.reject(new Error('jobs: the job queue is stopped'));
    // pg-boss creates its cron queue (`__pgboss__send-it`) at start without a lock: with another
    // node creating queues at the same moment, the two deadlock on the job table's partitions.
    // The same call under the lock every queue creation takes (issue 26 §2).
    const creates = values?.length === 2 ? PGBOSS_CREATE_QUEUE.exec(text.trim()) : null;
    if (creates && typeof values?.[0] === 'string') {
      const options = typeof values[1] === 'string' ? values[1] : JSON.stringify(values[1] ?? {});
      return this.executeSql(lockedCreateQueueText(creates[1]!, values[0], options));
    }
    let run = this.#raw.executeSql(text, values);
    if (values?.length === 3 && typeof values[0] === 'string' && values[0].startsWith(INTERNAL_QUEUE))
      run = run.catch((err: unknown) => {
        this.#log.warn(
          { err, queue: values[0] },
          'jobs: could not settle a pg-boss cron job; its lease retries it',
        );
        return { rows: [{ count: 0 }] };
      });
    this.#running.add(run);
    void run.catch(() => {}).finally(() => this.#running.delete(run));
    return run;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled([...this.#running]);
  }
}

/** pg-boss's schema for a store whose tables are in `storeSchema`. */
export function jobsSchemaOf(storeSchema: string): string {
  return storeSchema === 'public' ? 'pgboss' : `${storeSchema}_pgboss`;
}

/** The job id a key maps to (UUID v5 of queue and key). */
export function keyId(queue: string, key: string): string {
  return uuidv5(`${queue}\u0000${key}`, KEY_NAMESPACE);
}

/** pg-boss's per-job options from a definition and a send's options. */
export function jobOptions(
  definition: ResolvedDefinition,
  options: { runAt?: Date | undefined; key?: string | undefined; retryLimit?: number | undefined },
): PgBoss.SendOptions {
  return {
    retryLimit: options.retryLimit ?? definition.retryLimit,
    retryDelay: definition.retryDelaySeconds,
    retryBackoff: definition.retryBackoff,
    expireInSeconds: definition.leaseSeconds,
    ...(options.runAt ? { startAfter: options.runAt } : {}),
    // The key also goes in singleton_key, which a standard queue does not constrain: it is there
    // for the handler (`job.key`) and for whoever reads the table.
    ...(options.key !== undefined
      ? { id: keyId(definition.name, options.key), singletonKey: options.key }
      : {}),
  };
}

/** A SQL string literal (standard_conforming_strings: only `'` is doubled). */
function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * pg-boss's `createQueue` as one locked block (issue 26 §2: several nodes starting at once on an
 * empty database). pg-boss 10 runs `SELECT create_queue($1, $2)` without a lock (src/plans.js
 * `createQueue`), and its function creates a partition of the job table: two processes creating
 * queues at the same moment deadlock on that table, and the loser's start fails. Here the call
 * takes the same transaction-scoped advisory lock pg-boss takes around its own schema changes
 * (src/plans.js `locked` and `advisoryLock`), so creations run one after another, and a queue
 * another process created meanwhile is left as it is (the function's ON CONFLICT DO NOTHING).
 * Values are inlined because a `BEGIN; …; COMMIT;` block runs as one simple query (no parameters).
 * @param queue the options pg-boss's `createQueue` would store (the caller's `updateQueue` that
 *   follows sets them again).
 */
export function lockedCreateQueue(schema: string, name: string, queue: PgBoss.Queue): string {
  const options = JSON.stringify({
    policy: queue.policy ?? 'standard',
    retryLimit: queue.retryLimit,
    retryDelay: queue.retryDelay,
    retryBackoff: queue.retryBackoff,
    expireInSeconds: queue.expireInSeconds,
  });
  return lockedCreateQueueText(schema, name, options);
}

/** {@link lockedCreateQueue} with the options as pg-boss's JSON text. */
function lockedCreateQueueText(schema: string, name: string, optionsJson: string): string {
  const key = `current_database() || '.pgboss.${schema}'`;
  return `BEGIN;
    SET LOCAL lock_timeout = '30s';
    SELECT pg_advisory_xact_lock(('x' || encode(sha224((${key})::bytea), 'hex'))::bit(64)::bigint);
    SELECT ${schema}.create_queue(${literal(name)}, ${literal(optionsJson)}::json);
    COMMIT;`;
}

/** pg-boss's own unlocked queue creation (src/plans.js `createQueue`), e.g. its cron queue's at start. */
const PGBOSS_CREATE_QUEUE = /^SELECT ([a-z_][a-z0-9_]*)\.create_queue\(\$1, \$2\)$/;

/**
 * pg-boss on Charla's store (`sql`, its own `schema`): lease checks and archiving every
 * `leaseCheckSeconds`, a finished job's key kept `keyRetentionHours`, cron checked every
 * `cronCheckSeconds` (its cron queue polled at that interval, not every second); `onError` hears
 * the failures of its timers.
 */
export function createBoss(
  sql: TrackedSql,
  schema: string,
  options: { leaseCheckSeconds: number; keyRetentionHours: number; cronCheckSeconds: number; work: boolean },
  onError: (err: unknown) => void,
): PgBoss {
  const keySeconds = Math.round(options.keyRetentionHours * 3600);
  const boss = new PgBoss({
    db: sql,
    schema,
    maintenanceIntervalSeconds: options.leaseCheckSeconds,
    archiveCompletedAfterSeconds: keySeconds,
    archiveFailedAfterSeconds: keySeconds,
    cronMonitorIntervalSeconds: options.cronCheckSeconds,
    cronWorkerIntervalSeconds: options.cronCheckSeconds,
    // A node that runs no jobs (CHARLA_ROLE=web) neither expires leases nor creates cron runs.
    supervise: options.work,
    schedule: options.work,
  });
  boss.on('error', onError);
  return boss;
}
