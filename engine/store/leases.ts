/**
 * Leases in PostgreSQL (or PGlite) for work exactly one Charla process may do at a time (issue 26
 * §2): a Telegram bot's long polling (Telegram answers 409 to a second `getUpdates`). The holder
 * renews its lease every third of its length while it works; a holder that dies stops renewing,
 * and the lease is free once it has run out, so another node takes over within one lease length.
 * A clean stop releases it at once.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from './database.ts';

/**
 * Takes the lease `name` for `holder` for `ms` milliseconds when it is free, has run out, or is
 * already this holder's (then it is renewed). One statement: two processes asking at once get it
 * once.
 * @returns true when `holder` holds it now.
 */
export async function takeLease(
  db: Kysely<Database>,
  name: string,
  holder: string,
  ms: number,
): Promise<boolean> {
  const { rows } = await sql<{ holder: string }>`
    insert into leases (name, holder, expires_at)
    values (${name}, ${holder}, now() + make_interval(secs => ${ms / 1000}))
    on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
      where leases.holder = excluded.holder or leases.expires_at < now()
    returning holder`.execute(db);
  return rows.length === 1;
}

/** True when some process holds the lease `name` now (it has not run out). */
export async function leaseHeld(db: Kysely<Database>, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('leases')
    .select('name')
    .where('name', '=', name)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row !== undefined;
}

/** Lets the lease go when `holder` has it (a clean stop): the next asker takes it at once. */
export async function releaseLease(db: Kysely<Database>, name: string, holder: string): Promise<void> {
  await db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute();
}

/** Options of {@link holdLease}. */
export interface HoldLeaseOptions {
  db: Kysely<Database>;
  name: string;
  holder: string;
  /** Lease length, ms: the longest gap when a holder dies. */
  ms: number;
  /** Ends the whole thing: the work stops and the lease is released. */
  signal: AbortSignal;
  /** Called when the lease could not be taken or renewed because the database failed. */
  onError?: (err: unknown) => void;
}

/**
 * Runs `work` while this process holds the lease, again and again until `signal` aborts: waits
 * (asking every half lease) until the lease is free, runs `work` with a signal that aborts when
 * the lease is lost (renewal refused, or not renewed for a whole lease length because the
 * database is unreachable), and starts waiting again when `work` returns or the lease is lost.
 * The lease is released when `signal` aborts. `work` should return when its signal aborts.
 * Resolves once stopped and released.
 */
export async function holdLease(
  options: HoldLeaseOptions,
  work: (signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const { db, name, holder, ms, signal, onError } = options;
  const take = async (): Promise<boolean> => {
    try {
      return await takeLease(db, name, holder, ms);
    } catch (err) {
      onError?.(err);
      return false;
    }
  };
  while (!signal.aborted) {
    if (!(await take())) {
      await pause(ms / 2, signal);
      continue;
    }
    const lost = new AbortController();
    const stop = () => lost.abort();
    signal.addEventListener('abort', stop, { once: true });
    let renewedAt = Date.now();
    const timer = setInterval(
      () =>
        void takeLease(db, name, holder, ms).then(
          (held) => {
            if (held) renewedAt = Date.now();
            else lost.abort();
          },
          (err: unknown) => {
            onError?.(err);
            if (Date.now() - renewedAt >= ms) lost.abort();
          },
        ),
      Math.max(50, ms / 3),
    );
    try {
      await work(lost.signal);
    } finally {
      clearInterval(timer);
      signal.removeEventListener('abort', stop);
    }
    if (!lost.signal.aborted) await pause(ms / 2, signal);
  }
  await releaseLease(db, name, holder).catch((err: unknown) => onError?.(err));
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
