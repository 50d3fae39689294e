/**
 * PostgreSQL connections that survive their server (issue 24 §1; engine/store/connect.ts, "Connection
 * loss"): pools whose dropped connections are logged and replaced instead of ending the process,
 * and the one LISTEN connection of a process, which reconnects with backoff and LISTENs again.
 */
import { createHash } from 'node:crypto';
import type { Client, Pool } from 'pg';
import type { Logger } from '../logger.ts';
import { markDatabaseError } from './errors.ts';

/** Options of `Store.listen` (engine/store/connect.ts). */
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

/** First wait before reconnecting a lost LISTEN connection, ms; doubles after each failed attempt… */
export const LISTEN_RETRY_MIN_MS = 250;
/** …up to this, ms. */
export const LISTEN_RETRY_MAX_MS = 10_000;
/** Time between two `SELECT 1` checks of the LISTEN connection, ms. */
export const LISTEN_HEARTBEAT_MS = 30_000;
/** How long such a check may take before the connection is taken for dead, ms. */
export const LISTEN_HEARTBEAT_TIMEOUT_MS = 10_000;

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
export function guardPool(pool: Pool, role: string, log: Logger, options: { prepare?: boolean } = {}): Pool {
  pool.on('error', (err) => {
    log.warn({ err, pool: role }, 'database connection lost; the pool opens a new one when needed');
  });
  pool.on('connect', (client) => {
    // A client lent out when its connection drops: its query (if any) fails, and pg-pool discards
    // the client when it is released (it is no longer queryable). The idle case is logged above.
    client.on('error', (err) => log.debug({ err, pool: role }, 'database connection lost while in use'));
    if (options.prepare) prepareStatements(client);
    markErrorsOf(client, 'query');
  });
  markErrorsOf(pool, 'connect');
  markErrorsOf(pool, 'query');
  return pool;
}

/** Most statements one connection keeps prepared; later texts run unnamed (parsed each time). */
export const PREPARED_PER_CONNECTION = 256;
/** Longest statement text worth preparing, characters. */
const PREPARE_MAX_CHARS = 8_000;

/** Statement ids by text, shared by every connection (a hash is computed once per text). */
const STATEMENT_IDS = new Map<string, string>();

/** A short stable id of a statement's text (SHA-1, base64url, 20 characters). */
function statementId(text: string): string {
  let id = STATEMENT_IDS.get(text);
  if (id === undefined) {
    id = createHash('sha1').update(text).digest('base64url').slice(0, 20);
    if (STATEMENT_IDS.size >= 4 * PREPARED_PER_CONNECTION) STATEMENT_IDS.clear();
    STATEMENT_IDS.set(text, id);
  }
  return id;
}

/**
 * Prepares the statements a connection runs with parameters (issue 25: "prepared statements for
 * the hot ones"): a query `(text, values)` becomes node-postgres's named query `{ name, text,
 * values }`, the name a hash of the text, so PostgreSQL parses and plans a turn's read and write
 * once per connection instead of at every turn, and later calls send only Bind/Execute. Kysely's
 * queries have stable texts with `$n` parameters, so a few dozen names cover them; a text with
 * parameters is always one statement. Texts without parameters (migrations, `BEGIN; …`) run as
 * before. PostgreSQL re-plans a prepared statement by itself when a table it reads changes.
 * Behind a pooler in transaction mode, PgBouncer ≥ 1.21 with `max_prepared_statements` handles
 * them; for an older one, set `CHARLA_PG_PREPARE=off` (README, Configuration).
 */
function prepareStatements(client: Client): void {
  const names = new Set<string>();
  // Bumped when a migration elsewhere changed a table under a prepared `SELECT *`: new names, so
  // every statement is prepared again (node-postgres remembers which names it has parsed).
  let generation = 0;
  const holder = client as unknown as Record<string, (...args: unknown[]) => unknown>;
  const original = holder.query!.bind(client);
  const named = async (text: string, values: unknown[]): Promise<unknown> => {
    const name = `charla${generation}_${statementId(text)}`;
    if (!names.has(name) && names.size >= PREPARED_PER_CONNECTION) return original(text, values);
    names.add(name);
    try {
      return await original({ name, text, values });
    } catch (err) {
      // Another process's migration changed a table this statement reads (a rolling upgrade):
      // PostgreSQL refuses the old plan's row shape. Prepare again under new names, once.
      if ((err as { code?: string }).code !== '0A000' || !/cached plan/i.test(String(err))) throw err;
      generation++;
      names.clear();
      return original(text, values);
    }
  };
  holder.query = (...args: unknown[]) => {
    const [text, values] = args;
    if (
      args.length === 2 &&
      typeof text === 'string' &&
      Array.isArray(values) &&
      values.length > 0 &&
      text.length <= PREPARE_MAX_CHARS
    )
      return named(text, values);
    return original(...args);
  };
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
export class PgListener {
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
