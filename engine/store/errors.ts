/**
 * What a database error means for the request that met it (issue 24 §1, §7). PostgreSQL's
 * SQLSTATE classes (https://www.postgresql.org/docs/current/errcodes-appendix.html) and
 * node-postgres's connection errors are sorted into:
 *
 * - **unavailable**: the database cannot be reached or dropped the connection (a restart, a
 *   failover, `pg_terminate_backend`, an idle-connection reaper, a network cut). The request is
 *   answered 503 with `Retry-After`; nothing crashes.
 * - **bad input**: the client sent something PostgreSQL's types refuse (a NUL character in text,
 *   22021; an invalid byte sequence, 22P05; a malformed literal, 22P02). The request is answered 400.
 *
 * Only errors that the store's own connections raised count as "unavailable": engine/store/connect.ts
 * marks every error of its pools and clients ({@link markDatabaseError}), so a `fetch` to Meta or the
 * LLM that fails with `ECONNRESET` is an upstream failure, never mistaken for a database outage.
 */

/** The mark of an error raised by one of the store's PostgreSQL connections. */
const DATABASE_ERROR = Symbol.for('charla.databaseError');

/** Marks an error as raised by a database connection (engine/store/connect.ts); returns it. */
export function markDatabaseError<T>(err: T): T {
  if (err && typeof err === 'object' && !Object.isFrozen(err))
    Object.defineProperty(err, DATABASE_ERROR, { value: true, enumerable: false, configurable: true });
  return err;
}

/** True when the store's connections raised this error (see {@link markDatabaseError}). */
function fromDatabase(err: object): boolean {
  return (err as Record<symbol, unknown>)[DATABASE_ERROR] === true;
}

/** SQLSTATE codes of a lost or refused connection (classes 08 and 57P0x: admin shutdown, crash, cannot connect now). */
const UNAVAILABLE_SQLSTATE = /^(08|57P0[1-4]|53300)/;
/** node.js socket error codes of an unreachable server. */
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres's messages for a connection that ended or could not be made (pg-pool, pg client). */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client was closed|Client has encountered a connection error|Cannot use a pool after calling end|terminating connection|the database system is (starting up|shutting down|in recovery mode)/i;

/** SQLSTATE codes of a value PostgreSQL refused as text or a literal: the client's input, a 400. */
const BAD_INPUT_SQLSTATE = new Set(['22021', '22P05', '22P02', '22001', '22003', '22007', '22008', '54001']);

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * True when `err` (or its `cause`, e.g. inside the auth library's own error) is an error of the
 * store's connections saying the database is unreachable or dropped the connection. Walks `cause`
 * chains and AggregateErrors (pg-pool's connect errors) up to 5 levels deep; an error nobody marked
 * as the database's (a failed `fetch`) is never one.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  if (fromDatabase(err)) {
    const code = codeOf(err);
    if (code && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
    const message = (err as { message?: unknown }).message;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
  }
  const errors = (err as { errors?: unknown }).errors;
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable((err as { cause?: unknown }).cause, depth + 1);
}

/** True when PostgreSQL refused a value the client sent (NUL in text, a malformed literal, a value too long). */
export function isBadInputError(err: unknown): boolean {
  const code = codeOf(err);
  return code !== undefined && BAD_INPUT_SQLSTATE.has(code);
}

/** Seconds a client is asked to wait (`Retry-After`) while the database is unreachable. */
export const DATABASE_RETRY_AFTER_S = 5;
