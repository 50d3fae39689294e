/**
 * Opens Charla's database: embedded PGlite in `<dataDir>/pgdata` by default, PostgreSQL through
 * `pg` when a connection string is given (DESIGN.md, Store). Both speak the same SQL and run the
 * same migrations. No global client: callers pass the returned `db` to the query functions.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import type { QueryResult } from 'pg';
import type { Database } from './database.ts';

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
   * PGlite and on a PostgreSQL shared by several Charla processes.
   * @returns a function that unsubscribes.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
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

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite is a single-process database: two processes writing one data dir corrupt it. A lock
 * file holding the owner's pid keeps a second `charla` command out; a stale lock (dead pid) is
 * taken over.
 * @throws DataDirBusyError when a live process holds the lock.
 */
function lockDataDir(dir: string): () => void {
  const lock = join(dir, 'charla.lock');
  if (existsSync(lock)) {
    const pid = Number(readFileSync(lock, 'utf8').trim());
    if (Number.isInteger(pid) && pid !== process.pid && pidAlive(pid)) throw new DataDirBusyError(dir, pid);
  }
  writeFileSync(lock, String(process.pid));
  return () => {
    try {
      if (readFileSync(lock, 'utf8').trim() === String(process.pid)) rmSync(lock);
    } catch {
      // already gone
    }
  };
}

/** Returns the pid of the live process holding the embedded database in `dataDir`, or null. */
export function dataDirHolder(dataDir: string): number | null {
  const lock = join(dataDir, 'pgdata', 'charla.lock');
  if (!existsSync(lock)) return null;
  const pid = Number(readFileSync(lock, 'utf8').trim());
  return Number.isInteger(pid) && pid !== process.pid && pidAlive(pid) ? pid : null;
}

/**
 * Opens the database.
 * @throws DataDirBusyError when the embedded data dir is held by another process.
 */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  if (options.databaseUrl) {
    const pg = await import('pg');
    // bigint (int8) columns arrive as strings by default; counts and sizes here fit in a double.
    pg.default.types.setTypeParser(20, (v: string) => Number(v));
    const pool = new pg.default.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const ingest = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: new pg.default.Pool({
          connectionString: options.databaseUrl,
          max: 2,
          ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
        }),
      }),
    });
    // One dedicated connection carries every LISTEN of this process.
    const handlers = new Map<string, Set<(payload: string) => void>>();
    let listener: Promise<InstanceType<typeof pg.default.Client>> | undefined;
    const connectListener = () => {
      listener ??= (async () => {
        const client = new pg.default.Client({
          connectionString: options.databaseUrl,
          ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
        });
        await client.connect();
        client.on('notification', (n) => {
          for (const h of handlers.get(n.channel) ?? []) h(n.payload ?? '');
        });
        return client;
      })();
      return listener;
    };
    // Libraries' own SQL (pg-boss) on a small pool of its own, opened at the first call.
    let rawPool: InstanceType<typeof pg.default.Pool> | undefined;
    const rawPoolOf = () => {
      rawPool ??= new pg.default.Pool({
        connectionString: options.databaseUrl,
        max: 4,
        ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
      });
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
      async listen(channel, onPayload) {
        const client = await connectListener();
        let set = handlers.get(channel);
        if (!set) {
          set = new Set();
          handlers.set(channel, set);
          await client.query(`LISTEN ${quoteIdent(channel)}`);
        }
        set.add(onPayload);
        return async () => {
          set.delete(onPayload);
        };
      },
      async close() {
        if (listener) await (await listener).end().catch(() => {});
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
