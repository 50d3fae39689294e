/**
 * What every log line says about the work it belongs to (issue 26 §3: request ids in every log
 * line): the HTTP request's id, the job's id and queue, the channel update's key. The HTTP server
 * enters a context per request (engine/http/server.ts), the job worker per job, the inbox per
 * update; the logger (engine/logger.ts) adds the current context to every line, so a line logged
 * deep in the engine, a plugin or an adapter during a request carries that request's `reqId`,
 * without passing loggers around. Built on Node's AsyncLocalStorage, which follows `await`,
 * timers and stream callbacks.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';

/** The fields a log line gets from its context; all optional. */
export interface LogContext {
  /** The HTTP request's id (also sent back as `x-request-id`). */
  reqId?: string;
  /** A job's id (pg-boss) and queue. */
  jobId?: string;
  queue?: string;
  /** A channel update's key (`<bot>:<update id>` for Telegram), engine/channels/inbox.ts. */
  updateKey?: string;
}

const storage = new AsyncLocalStorage<LogContext>();

/**
 * A copy of the current context (empty outside any): the logger's mixin. A copy, because pino
 * merges each line's fields into the object its mixin returns (`Object.assign(mixin, fields)`).
 */
export function currentLogContext(): LogContext {
  const store = storage.getStore();
  return store ? { ...store } : {};
}

/**
 * Whether contexts follow the work (`CHARLA_LOG_CONTEXT=on`, engine/config.ts; default off).
 * Measured on Node 20 (`npm run bench`, PostgreSQL, 50 followers): an AsyncLocalStorage entered per
 * request turns on Node's promise hooks for the whole process, 1.47 → 1.84 ms of server CPU per
 * message (+25 %). Off, the request id is on every line the HTTP layer logs for a request (Fastify's
 * request logger, which also logs every failed request), jobs' and updates' lines name their job or
 * update; on, also every line the engine, adapters and plugins log while doing that work.
 */
let enabled = false;

/** Turns context propagation on or off for this process (cli/app.ts, from the configuration). */
export function setLogContext(on: boolean): void {
  enabled = on;
}

/** True when contexts follow the work ({@link setLogContext}). */
export function logContextEnabled(): boolean {
  return enabled;
}

/**
 * Runs `fn` with `fields` added to the current context (for what `fn` logs, synchronously or
 * later); just runs `fn` while propagation is off.
 */
export function withLogContext<T>(fields: LogContext, fn: () => T): T {
  if (!enabled) return fn();
  const outer = storage.getStore();
  return storage.run(outer ? { ...outer, ...fields } : fields, fn);
}

/** A request id a proxy may send (`x-request-id`): short, and only characters safe in a log. */
const GIVEN_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The id of an HTTP request: the proxy's `x-request-id` when it is a safe token (so one id follows
 * the request from the proxy's log into ours), else 12 random bytes in base64url (16 characters),
 * unique across nodes (Fastify's default, `req-1`, repeats on every node and restart).
 */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && GIVEN_ID.test(header) ? header : randomBytes(12).toString('base64url');
}
