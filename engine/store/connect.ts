/**
 * Opens Charla's database: embedded PGlite in `<dataDir>/pgdata` by default, PostgreSQL through
 * `pg` when a connection string is given (DESIGN.md, Store). Both speak the same SQL and run the
 * same migrations. No global client: callers pass the returned `db` to the query functions.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
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
   * Subscribes to a Postgres NOTIFY channel (realtime: file lists, followers' messages). Works on
   * PGlite and on a PostgreSQL shared by several Charla processes.
   * @returns a function that unsubscribes.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /** Closes the pool or the embedded instance and releases the data dir lock. */
  close(): Promise<void>;
}

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /** PostgreSQL connection string; when absent PGlite is used. */
  databaseUrl?: string | undefined;
  /** Folder of the embedded data (`pgdata/` lives inside). Required for PGlite unless `memory`. */
  dataDir?: string;
  /** PGlite only: an in-memory instance (tests). */
  memory?: boolean;
  /** PGlite only: start from a dump made by `pglite.dumpDataDir()` (tests share a migrated dump). */
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
    return {
      db,
      ingest,
      kind: 'postgres',
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
        await ingest.destroy();
        await db.destroy();
      },
    };
  }
  const { PGlite, types } = await import('@electric-sql/pglite');
  const parsers = { [types.INT8]: (v: string) => Number(v) };
  let pglite: InstanceType<typeof PGlite>;
  let unlock = () => {};
  if (options.memory || !options.dataDir) {
    pglite = new PGlite({ parsers, ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}) });
  } else {
    const dir = join(options.dataDir, 'pgdata');
    mkdirSync(dir, { recursive: true });
    unlock = lockDataDir(dir);
    // The instance boots in the background (WebAssembly compile and Postgres start-up); the first
    // query waits for it, so callers can build the rest of the app meanwhile (cold start).
    pglite = new PGlite(dir, { parsers });
    pglite.waitReady.catch(() => unlock());
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  return {
    db,
    ingest: db,
    kind: 'pglite',
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
