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
 * - the LISTEN connection reconnects by itself with backoff (`LISTEN_RETRY_MIN_MS` doubling to
 *   `LISTEN_RETRY_MAX_MS`, engine/store/pg-connections.ts), LISTENs again on every channel it had, and then calls each
 *   subscriber's `onResume` ({@link ListenOptions}): notifications sent while it was down are lost,
 *   so live views reload. A `SELECT 1` every `LISTEN_HEARTBEAT_MS` on it finds a connection
 *   that died without a word.
 * Every connection carries an `application_name` ({@link OpenStoreOptions.applicationName}), so an
 * operator (or a test) can tell Charla's connections apart in `pg_stat_activity`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import type { ClientConfig, Pool, QueryResult } from 'pg';
import { createLogger, type Logger } from '../logger.ts';
import { lockDataDir } from './data-dir-lock.ts';
import type { Database } from './database.ts';
import { guardPool, type ListenOptions, PgListener } from './pg-connections.ts';

export type { ListenOptions };

/** How long opening a PostgreSQL connection may take before it fails, ms. */
export const CONNECT_TIMEOUT_MS = 5000;
/** Idle time before the first TCP keepalive probe on a PostgreSQL connection, ms. */
export const KEEPALIVE_DELAY_MS = 10_000;

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
  /** Where `CHARLA_PG_PREPARE` is read (`off`: no prepared statements); default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
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
    // Prepared statements on the pools Kysely uses (pg-connections.ts `prepareStatements`).
    const prepare = { prepare: (options.env ?? process.env).CHARLA_PG_PREPARE !== 'off' };
    const pool = guardPool(
      new pg.Pool({ ...connection(), max: options.poolSize ?? 10 }),
      'main',
      log,
      prepare,
    );
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const ingest = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: guardPool(new pg.Pool({ ...connection('ingest'), max: 2 }), 'ingest', log, prepare),
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
  // btree_gist: the reservations plugin's exclusion constraint (no double booking) needs it;
  // btree_gin: the files' passages are indexed by bot and text in one GIN
  // (migrations/202611301010_passages_bot_gin.ts). PGlite ships both as contrib extensions, loaded
  // here and created by the migrations. vector (pgvector, @electric-sql/pglite-pgvector): the
  // passages' embeddings, when an embeddings server is configured (engine/knowledge/pgvector.ts);
  // loading it costs nothing measurable until the extension is created.
  const [{ btree_gist }, { btree_gin }, { vector }] = await Promise.all([
    import('@electric-sql/pglite/contrib/btree_gist'),
    import('@electric-sql/pglite/contrib/btree_gin'),
    import('@electric-sql/pglite-pgvector'),
  ]);
  const parsers = { [types.INT8]: (v: string) => Number(v) };
  const extensions = { btree_gist, btree_gin, vector };
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
