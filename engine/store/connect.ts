/**
 * Opens Charla's database: embedded PGlite in `<dataDir>/pgdata` by default, PostgreSQL through
 * `pg` when a connection string is given (DESIGN.md, Store). Both speak the same SQL and run the
 * same migrations. No global client: callers pass the returned `db` to the query functions.
 *
 * **Connection loss (PostgreSQL; issue 24 §1).** A restart, a failover, `pg_terminate_backend`, an
 * idle-connection reaper (PgBouncer, a cloud proxy) or a network cut never ends the process:
 * - every pool and client has an `'error'` listener: a connection that drops is logged at `warn`
 *   and thrown away, and the pool opens a new one for the next query;
 * - opening a connection gives up after {@link CONNECT_TIMEOUT_MS} (`connectionTimeoutMillis`), so
 *   a query made while the server cannot be reached fails within that time instead of hanging (the
 *   HTTP layer answers it 503 with `Retry-After`, engine/store/errors.ts), and sockets use TCP
 *   keepalive (first probe after {@link KEEPALIVE_DELAY_MS}) so a silently cut idle connection is
 *   noticed by the kernel;
 * - the LISTEN connection reconnects by itself with backoff ({@link LISTEN_RETRY_MIN_MS} doubling to
 *   {@link LISTEN_RETRY_MAX_MS}), LISTENs again on every channel it had, and then calls each
 *   subscriber's `onResume` ({@link ListenOptions}): notifications sent while it was down are lost,
 *   so live views reload. A `SELECT 1` every {@link LISTEN_HEARTBEAT_MS} on it finds a connection
 *   that died without a word.
 * Every connection carries an `application_name` ({@link OpenStoreOptions.applicationName}), so an
 * operator (or a test) can tell Charla's connections apart in `pg_stat_activity`.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import type { Client, ClientConfig, Pool, QueryResult } from 'pg';
import { createLogger, type Logger } from '../logger.ts';
import type { Database } from './database.ts';
import { markDatabaseError } from './errors.ts';

/** How long opening a PostgreSQL connection may take before it fails, ms. */
export const CONNECT_TIMEOUT_MS = 5000;
/** Idle time before the first TCP keepalive probe on a PostgreSQL connection, ms. */
export const KEEPALIVE_DELAY_MS = 10_000;
/** First wait before reconnecting a lost LISTEN connection, ms; doubles after each failed attempt… */
export const LISTEN_RETRY_MIN_MS = 250;
/** …up to this, ms. */
export const LISTEN_RETRY_MAX_MS = 10_000;
/** Time between two `SELECT 1` checks of the LISTEN connection, ms. */
export const LISTEN_HEARTBEAT_MS = 30_000;
/** How long such a check may take before the connection is taken for dead, ms. */
export const LISTEN_HEARTBEAT_TIMEOUT_MS = 10_000;

/** Options of {@link Store.listen}. */
export interface ListenOptions {
  /**
   * Called when the subscription works again after the LISTEN connection was lost (a database
   * restart, a failover, a network cut) or could not be opened when `listen` was called.
   * Notifications sent meanwhile were not delivered: the subscriber reloads what it shows (the
   * live streams send a `resync` event). Never called on PGlite, whose connection cannot drop.
   * An exception it throws is logged.
   */
  onResume?: () => void;
}

/** Which engine a store runs on. */
export type StoreKind = 'pglite' | 'postgres';

/** An open database and how to close it. */
export interface Store {
  db: Kysely<Database>;
  /**
   * Where writes that must not queue behind request work go: the durable inbox's inserts, which a
   * channel acknowledges only after (issue 5: a webhook's 200 should not wait for other turns'
   * queries). On PostgreSQL a separate pool of 2 connections; on PGlite, with its single
   * connection, the same instance as `db`.
   */
  ingest: Kysely<Database>;
  kind: StoreKind;
  /**
   * The PostgreSQL schema of Charla's tables: `public`, or the one given to {@link openStore}
   * (tests isolate each file in its own). Libraries with tables of their own name theirs after it.
   */
  schema: string;
  /**
   * Runs SQL texts that a library brings with it (pg-boss, in engine/jobs), not Charla's own
   * queries, which go through `db` and engine/store/queries. See {@link RawSql}.
   */
  raw: RawSql;
  /**
   * Subscribes to a Postgres NOTIFY channel (realtime: file lists, followers' messages). Works on
   * PGlite and on a PostgreSQL shared by several Charla processes. Resolves once listening; when the
   * database cannot be reached it resolves all the same, the subscription starts when the LISTEN
   * connection is back, and `options.onResume` is called then (see {@link ListenOptions}).
   * `onPayload` is called with each payload as sent (`''` for none); an exception it throws is
   * logged, never thrown.
   * @returns a function that unsubscribes.
   * @throws Error when the store is closed.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    options?: ListenOptions,
  ): Promise<() => Promise<void>>;
  /** Closes the pool or the embedded instance and releases the data dir lock. */
  close(): Promise<void>;
}

/** Rows of the last statement of a text run by {@link RawSql.executeSql}. */
export interface RawResult {
  rows: Record<string, unknown>[];
}

/**
 * Runs a library's own SQL texts, in the shape pg-boss's `db.executeSql` adapter takes.
 *
 * - With `values` (one or more): one statement with `$1…` parameters (the extended protocol).
 * - Without: one or more statements separated by `;` (the simple protocol); the rows of the last.
 *   A text that is one `BEGIN; …; COMMIT;` block (pg-boss's migrations and maintenance) runs as one
 *   transaction that is rolled back when a statement fails, so an error never leaves a connection
 *   inside a failed transaction (PGlite has only one, shared with `db`).
 *
 * PGlite: on the store's one connection. Each call waits for a transaction of `db` in progress to
 * end (PGlite's transaction lock; Kysely's PGlite dialect takes it for `db.transaction()`), and
 * none of its statements can run inside that transaction or split it. PostgreSQL: on a pool of its
 * own of up to 4 connections with the store's search path, opened at the first call.
 * @throws the database's error (e.g. `DatabaseError` from pg, PGlite's error), unchanged.
 */
export interface RawSql {
  executeSql(text: string, values?: unknown[]): Promise<RawResult>;
}

/** `BEGIN; <body> COMMIT;` as pg-boss writes its locked commands (src/plans.js `locked`). */
const TRANSACTION_BLOCK = /^\s*BEGIN\s*;([\s\S]*?);?\s*COMMIT\s*;?\s*$/i;

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /** PostgreSQL connection string; when absent PGlite is used. */
  databaseUrl?: string | undefined;
  /** Folder of the embedded data (`pgdata/` lives inside). Required for PGlite unless `memory`. */
  dataDir?: string;
  /** PGlite only: an in-memory instance (tests). */
  memory?: boolean;
  /**
   * PGlite only: start from a dump made by `pglite.dumpDataDir()` (tests share a migrated dump),
   * in memory or in a new data dir (an existing one must not be given a dump).
   */
  loadDataDir?: Blob;
  /** PostgreSQL pool size; default 10. */
  poolSize?: number;
  /** PostgreSQL only: the schema to use (tests isolate each file in its own); default `public`. */
  schema?: string;
  /**
   * PostgreSQL only: the `application_name` of the connections (`pg_stat_activity`); default
   * `charla`. The main pool uses it as is; the others add their role: `<name>/ingest`,
   * `<name>/listen`, `<name>/raw` (pg-boss). A connection string's own `application_name` wins.
   */
  applicationName?: string;
  /** PostgreSQL only: {@link CONNECT_TIMEOUT_MS} unless given, ms. */
  connectTimeoutMs?: number;
  /**
   * Where connection trouble is reported (lost connections at `warn`, the LISTEN connection's return
   * at `info`); default a pino logger named `charla-store`.
   */
  log?: Logger;
}

/** Thrown when another live process holds the embedded database. */
export class DataDirBusyError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dir} is in use by another Charla process (pid ${pid}). ` +
        'Stop it first, or set DATABASE_URL to share a PostgreSQL server between processes.',
    );
    this.name = 'DataDirBusyError';
  }
}

/**
 * Who holds a data dir's lock file (`<dataDir>/pgdata/charla.lock`, JSON). Charla before issue 24
 * wrote the bare pid; such a lock is still read ({@link readLock}).
 */
export interface LockHolder {
  pid: number;
  /** Linux: the boot the holder runs in (`/proc/sys/kernel/random/boot_id`). */
  boot?: string;
  /** Linux: the holder's start time, clock ticks after boot (`/proc/<pid>/stat`, field 22). */
  start?: string;
  /** A random id of this opening: `close` removes the lock only while it is still its own. */
  instance?: string;
}

/** Fields of `/proc/<pid>/stat` that tell whether a pid is still the same live process (Linux). */
interface ProcStat {
  /** `R`, `S`, `D`, `T`, `t`, `Z` (zombie), `X`/`x` (dead), … (proc(5)). */
  state: string;
  /** Field 22, `starttime`: clock ticks after boot. */
  start: string;
}

/**
 * `/proc/<pid>/stat`'s state and start time; null when the file does not exist (no such process,
 * or no procfs: not Linux). The command name (field 2) may hold spaces and parentheses, so fields
 * are counted from its last `)`.
 */
function procStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', start: fields[19] ?? '' };
}

/** The current boot's id (Linux), or undefined. */
function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** True where `/proc` describes processes (Linux). */
const HAS_PROCFS = existsSync('/proc/self/stat');

/** This process as a lock holder. */
function thisHolder(): LockHolder {
  const boot = bootId();
  const start = procStat(process.pid)?.start;
  return { pid: process.pid, ...(boot ? { boot } : {}), ...(start ? { start } : {}), instance: randomUUID() };
}

/** A file's text, or null when it cannot be read (gone). */
function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The holder a lock file names, or null when it names none (unreadable, empty or garbled). */
export function readLock(file: string): LockHolder | null {
  const text = readText(file)?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return { pid: Number(text) }; // an older Charla's lock: the pid alone
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>;
    if (!Number.isInteger(parsed.pid) || (parsed.pid as number) <= 0) return null;
    return {
      pid: parsed.pid as number,
      ...(typeof parsed.boot === 'string' ? { boot: parsed.boot } : {}),
      ...(typeof parsed.start === 'string' ? { start: parsed.start } : {}),
      ...(typeof parsed.instance === 'string' ? { instance: parsed.instance } : {}),
    };
  } catch {
    return null;
  }
}

/** A command line that runs Charla: Node (or a Node-compatible runtime) or something named charla. */
function runsCharla(pid: number): boolean {
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return true; // not ours to read (another user's process): as alive as kill(pid, 0) says
  }
  if (argv.length === 0) return false; // a kernel thread, or a process on its way out
  return (
    /^(node|nodejs|bun|deno)(\d|$)|charla/i.test(basename(argv[0]!)) || argv.some((a) => /charla/i.test(a))
  );
}

/**
 * True when the process a lock names still runs and is the one that wrote it, so the data dir is
 * in use (issue 24 §8). On Linux, from `/proc/<pid>/stat`: no such process, a zombie (`Z`: it exited
 * and its parent has not reaped it) or a dead one (`X`) holds nothing; a lock that records the
 * holder's boot and start time holds only while the pid still has them (a pid reused by another
 * program after a crash does not); a bare-pid lock of an older Charla holds only while the pid runs
 * Node or something named charla (`/proc/<pid>/cmdline`). Elsewhere `kill(pid, 0)`: the pid exists.
 */
export function holderAlive(holder: LockHolder): boolean {
  if (HAS_PROCFS) {
    const stat = procStat(holder.pid);
    if (!stat || stat.state === 'Z' || stat.state === 'X' || stat.state === 'x') return false;
    if (holder.boot !== undefined && holder.boot !== bootId()) return false;
    if (holder.start !== undefined) return holder.start === stat.start;
    return runsCharla(holder.pid);
  }
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite is a single-process database: two processes writing one data dir corrupt it. A lock
 * file naming the holder ({@link LockHolder}: pid, and on Linux its boot and start time) keeps a
 * second `charla` command out; a stale lock (see {@link holderAlive}: a dead pid, a zombie, a pid
 * reused by another program) is taken over. The file is created exclusively (`wx`), so of two
 * processes taking over one stale lock at once, one gets it and the other is told it is busy.
 * @returns the function that removes the lock (only while it is still this opening's).
 * @throws DataDirBusyError when a live process holds the lock.
 */
function lockDataDir(dir: string): () => void {
  const lock = join(dir, 'charla.lock');
  const me = thisHolder();
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lock, JSON.stringify(me), { flag: 'wx', mode: 0o600 });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw err;
    }
    const text = readText(lock);
    if (text === null) continue; // removed meanwhile: try again
    const holder = readLock(lock);
    if (holder && holder.pid !== process.pid && holderAlive(holder))
      throw new DataDirBusyError(dir, holder.pid);
    // Stale. Removed only if unchanged since read: a process that took it over meanwhile keeps it.
    if (readText(lock) === text) rmSync(lock, { force: true });
  }
  return () => {
    try {
      if (readLock(lock)?.instance === me.instance) rmSync(lock);
    } catch {
      // already gone
    }
  };
}

/**
 * Returns the pid of the live process holding the embedded database in `dataDir` (see
 * {@link holderAlive}), or null.
 */
export function dataDirHolder(dataDir: string): number | null {
  const holder = readLock(join(dataDir, 'pgdata', 'charla.lock'));
  return holder && holder.pid !== process.pid && holderAlive(holder) ? holder.pid : null;
}

/**
 * Opens the database.
 * @throws DataDirBusyError when the embedded data dir is held by another process.
 */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  if (options.databaseUrl) {
    const pg = (await import('pg')).default;
    // bigint (int8) columns arrive as strings by default; counts and sizes here fit in a double.
    pg.types.setTypeParser(20, (v: string) => Number(v));
    const log = options.log ?? createLogger({ name: 'charla-store' });
    const appName = options.applicationName ?? 'charla';
    const connection = (role?: string): ClientConfig => ({
      connectionString: options.databaseUrl,
      application_name: role ? `${appName}/${role}` : appName,
      connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    const pool = guardPool(new pg.Pool({ ...connection(), max: options.poolSize ?? 10 }), 'main', log);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const ingest = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: guardPool(new pg.Pool({ ...connection('ingest'), max: 2 }), 'ingest', log),
      }),
    });
    // One dedicated connection carries every LISTEN of this process, and reconnects by itself.
    const listener = new PgListener(() => new pg.Client(connection('listen')), log);
    // Libraries' own SQL (pg-boss) on a small pool of its own, opened at the first call.
    let rawPool: Pool | undefined;
    const rawPoolOf = () => {
      rawPool ??= guardPool(new pg.Pool({ ...connection('raw'), max: 4 }), 'raw', log);
      return rawPool;
    };
    const raw: RawSql = {
      async executeSql(text, values) {
        if (values && values.length > 0) {
          const { rows } = await rawPoolOf().query(text, values);
          return { rows };
        }
        const client = await rawPoolOf().connect();
        let result: QueryResult | QueryResult[];
        try {
          result = (await client.query(text)) as QueryResult | QueryResult[];
        } catch (err) {
          // A failed `BEGIN; …` text leaves its connection inside a failed transaction: the pool
          // discards that connection instead of lending it again.
          client.release(err as Error);
          throw err;
        }
        client.release();
        const last = Array.isArray(result) ? result[result.length - 1] : result;
        return { rows: last?.rows ?? [] };
      },
    };
    return {
      db,
      ingest,
      kind: 'postgres',
      schema: options.schema ?? 'public',
      raw,
      listen: (channel, onPayload, listenOptions) => listener.listen(channel, onPayload, listenOptions),
      async close() {
        await listener.close();
        await rawPool?.end();
        await ingest.destroy();
        await db.destroy();
      },
    };
  }
  const { PGlite, types } = await import('@electric-sql/pglite');
  // btree_gist: the reservations plugin's exclusion constraint (no double booking) needs it; PGlite
  // ships it as a contrib extension, loaded here and created by that plugin's migration.
  const { btree_gist } = await import('@electric-sql/pglite/contrib/btree_gist');
  const parsers = { [types.INT8]: (v: string) => Number(v) };
  const extensions = { btree_gist };
  let pglite: InstanceType<typeof PGlite>;
  let unlock = () => {};
  if (options.memory || !options.dataDir) {
    pglite = new PGlite({
      parsers,
      extensions,
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
  } else {
    const dir = join(options.dataDir, 'pgdata');
    mkdirSync(dir, { recursive: true });
    unlock = lockDataDir(dir);
    // The instance boots in the background (WebAssembly compile and Postgres start-up); the first
    // query waits for it, so callers can build the rest of the app meanwhile (cold start).
    pglite = new PGlite(dir, {
      parsers,
      extensions,
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
    pglite.waitReady.catch(() => unlock());
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  const lastRows = (results: { rows: unknown[] }[]): RawResult => ({
    rows: (results[results.length - 1]?.rows ?? []) as Record<string, unknown>[],
  });
  const raw: RawSql = {
    async executeSql(text, values) {
      if (values && values.length > 0) {
        const { rows } = await pglite.query<Record<string, unknown>>(text, values);
        return { rows };
      }
      const block = TRANSACTION_BLOCK.exec(text);
      if (!block) return lastRows(await pglite.exec(text));
      // PGlite's own transaction: it rolls back on error and holds the instance meanwhile.
      return lastRows(await pglite.transaction((tx) => tx.exec(block[1]!)));
    },
  };
  return {
    db,
    ingest: db,
    kind: 'pglite',
    schema: 'public',
    raw,
    // PGlite runs in this process: its connection cannot drop, so `onResume` is never called.
    async listen(channel, onPayload) {
      const unlisten = await pglite.listen(channel, onPayload);
      return async () => {
        if (!pglite.closed) await unlisten();
      };
    },
    async close() {
      try {
        await db.destroy();
        if (!pglite.closed) await pglite.close();
      } finally {
        unlock();
      }
    },
  };
}

/** True when the database answers a trivial query (the health check). */
export async function ping(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/** A channel name as a quoted SQL identifier. */
function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Gives a pool the listeners without which a dropped connection ends the process (node-postgres
 * emits `'error'` on the pool for an idle connection, and on the client itself for one lent out
 * between two queries, e.g. inside a transaction): the lost connection is logged and thrown away,
 * and the pool opens a new one for the next query. A query that was running on it fails with the
 * connection's error (a 503 for an HTTP request, engine/store/errors.ts).
 */
function guardPool(pool: Pool, role: string, log: Logger): Pool {
  pool.on('error', (err) => {
    log.warn({ err, pool: role }, 'database connection lost; the pool opens a new one when needed');
  });
  pool.on('connect', (client) => {
    // A client lent out when its connection drops: its query (if any) fails, and pg-pool discards
    // the client when it is released (it is no longer queryable). The idle case is logged above.
    client.on('error', (err) => log.debug({ err, pool: role }, 'database connection lost while in use'));
    markErrorsOf(client, 'query');
  });
  markErrorsOf(pool, 'connect');
  markErrorsOf(pool, 'query');
  return pool;
}

/**
 * Marks the errors a pool's or client's promise-returning method rejects with as the database's
 * (engine/store/errors.ts), so only they can read as "the database is unavailable". Callback and
 * submittable (cursor) calls pass through unchanged.
 */
function markErrorsOf(target: object, method: 'connect' | 'query'): void {
  const holder = target as Record<string, (...args: unknown[]) => unknown>;
  const original = holder[method]!.bind(target);
  holder[method] = (...args: unknown[]) => {
    const result = original(...args);
    return result instanceof Promise
      ? result.catch((err: unknown) => Promise.reject(markDatabaseError(err)))
      : result;
  };
}

/** One subscriber of a channel. */
interface Subscriber {
  onPayload: (payload: string) => void;
  onResume: (() => void) | undefined;
}

/**
 * The one PostgreSQL connection that carries every LISTEN of a process (see the module's comment,
 * "Connection loss"). States: not connected yet (the first `listen` connects), connected, and
 * lost (waiting {@link LISTEN_RETRY_MIN_MS} … {@link LISTEN_RETRY_MAX_MS} before the next attempt).
 * Subscriptions outlive connections: a reconnect LISTENs on every channel that has subscribers,
 * then calls every subscriber's `onResume`.
 */
class PgListener {
  readonly #newClient: () => Client;
  readonly #log: Logger;
  /** Subscribers by channel; a channel's set lives as long as the listener. */
  readonly #subs = new Map<string, Set<Subscriber>>();
  /** The connection, once connected and listening. */
  #client: Client | null = null;
  /** Channels LISTENed on `#client`. */
  #listening = new Set<string>();
  /** A connection attempt under way. */
  #connecting: Promise<Client> | null = null;
  /** The timer of the next attempt while the connection is lost. */
  #retry: NodeJS.Timeout | null = null;
  #delay = LISTEN_RETRY_MIN_MS;
  /** Lost since the last connection (or never connected after a failed first attempt): resume when back. */
  #down = false;
  #heartbeat: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(newClient: () => Client, log: Logger) {
    this.#newClient = newClient;
    this.#log = log;
  }

  async listen(
    channel: string,
    onPayload: (payload: string) => void,
    options?: ListenOptions,
  ): Promise<() => Promise<void>> {
    if (this.#closed) throw new Error('store: listen after close');
    const sub: Subscriber = { onPayload, onResume: options?.onResume };
    let set = this.#subs.get(channel);
    if (!set) {
      set = new Set();
      this.#subs.set(channel, set);
    }
    set.add(sub);
    const subscribers = set;
    const unsubscribe = async () => {
      subscribers.delete(sub);
    };
    // Lost and waiting to retry: the reconnect LISTENs on this channel too, then resumes it.
    if (this.#retry) return unsubscribe;
    try {
      const client = await this.#connected();
      if (!this.#listening.has(channel)) {
        await client.query(`LISTEN ${quoteIdent(channel)}`);
        this.#listening.add(channel);
      }
    } catch (err) {
      // The subscription stays: it starts with the next connection, and `onResume` says so.
      this.#lost(err);
    }
    return unsubscribe;
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    const client = this.#client ?? (await this.#connecting?.catch(() => null));
    this.#client = null;
    await client?.end().catch(() => {});
  }

  /** The connection, opened (and listening on every subscribed channel) when there is none. */
  #connected(): Promise<Client> {
    if (this.#client) return Promise.resolve(this.#client);
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = null;
    });
    return this.#connecting;
  }

  async #connect(): Promise<Client> {
    const client = this.#newClient();
    // Errors of a client that is not (or no longer) `#client` are the connect's own, or old news.
    client.on('error', (err) => this.#lost(err, client));
    client.on('end', () => this.#lost(new Error('the LISTEN connection ended'), client));
    client.on('notification', (n) => this.#deliver(n.channel, n.payload ?? ''));
    try {
      await client.connect();
      const channels = [...this.#subs].filter(([, set]) => set.size > 0).map(([channel]) => channel);
      if (channels.length > 0) await client.query(channels.map((c) => `LISTEN ${quoteIdent(c)};`).join(' '));
      if (this.#closed) throw new Error('store: closed while connecting');
      this.#client = client;
      this.#listening = new Set(channels);
      this.#startHeartbeat(client);
      return client;
    } catch (err) {
      destroy(client);
      throw err;
    }
  }

  #deliver(channel: string, payload: string): void {
    for (const sub of this.#subs.get(channel) ?? []) {
      try {
        sub.onPayload(payload);
      } catch (err) {
        this.#log.warn({ err, channel }, 'a LISTEN subscriber failed');
      }
    }
  }

  /** The connection is lost (or could not be made): drop it and try again after a while. */
  #lost(err: unknown, from?: Client): void {
    if (this.#closed) return;
    if (from && from !== this.#client) return;
    const client = this.#client;
    if (client) {
      this.#client = null;
      this.#listening = new Set();
      if (this.#heartbeat) clearInterval(this.#heartbeat);
      destroy(client);
    }
    this.#down = true;
    if (this.#retry || this.#connecting) return;
    this.#log.warn({ err, retryInMs: this.#delay }, 'LISTEN connection lost; reconnecting');
    this.#schedule();
  }

  #schedule(): void {
    const delay = this.#delay;
    this.#delay = Math.min(this.#delay * 2, LISTEN_RETRY_MAX_MS);
    this.#retry = setTimeout(() => {
      this.#retry = null;
      if (this.#closed) return;
      this.#connected().then(
        () => this.#resumed(),
        (err: unknown) => {
          if (this.#closed) return;
          this.#log.warn({ err, retryInMs: this.#delay }, 'LISTEN connection still down; retrying');
          this.#schedule();
        },
      );
    }, delay);
    this.#retry.unref();
  }

  /** Connected again: every subscriber may have missed notifications. */
  #resumed(): void {
    this.#delay = LISTEN_RETRY_MIN_MS;
    if (!this.#down) return;
    this.#down = false;
    this.#log.info({ channels: this.#listening.size }, 'LISTEN connection back; live views resync');
    for (const [channel, set] of this.#subs) {
      for (const sub of set) {
        try {
          sub.onResume?.();
        } catch (err) {
          this.#log.warn({ err, channel }, 'a LISTEN subscriber failed to resume');
        }
      }
    }
  }

  /** Checks the connection every {@link LISTEN_HEARTBEAT_MS}: a dead one is replaced. */
  #startHeartbeat(client: Client): void {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#heartbeat = setInterval(() => {
      if (client !== this.#client) return;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(new Error(`the LISTEN connection did not answer in ${LISTEN_HEARTBEAT_TIMEOUT_MS} ms`)),
          LISTEN_HEARTBEAT_TIMEOUT_MS,
        );
      });
      Promise.race([client.query('SELECT 1'), late])
        .catch((err: unknown) => this.#lost(err, client))
        .finally(() => clearTimeout(timer));
    }, LISTEN_HEARTBEAT_MS);
    this.#heartbeat.unref();
  }
}

/** Closes a client without waiting for the server (its socket may be dead). */
function destroy(client: Client): void {
  client.removeAllListeners('notification');
  // Keep an 'error' listener: a late error of a destroyed client must not end the process.
  client.removeAllListeners('error');
  client.on('error', () => {});
  void client.end().catch(() => {});
  (client as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}
