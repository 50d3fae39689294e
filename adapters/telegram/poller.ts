/**
 * Long polling for one bot (issue 5: used when no public HTTPS address is configured). One loop
 * per bot, all in one process: `getUpdates` with a server-side timeout, each update stored in the
 * durable inbox before the next call acknowledges it (Bot API: an update is confirmed by calling
 * `getUpdates` with an offset higher than its `update_id`). Failures are recorded for the owner
 * (the state the dashboard shows) and retried with backoff; a refused token (401) or another
 * process polling the same bot (409 Conflict) is reported in words the owner can act on.
 *
 * With several Charla nodes (issue 26 §2), only the holder of the bot's lease polls
 * (engine/store/leases.ts): the others wait as stand-by and take over within one lease length when
 * the holder stops or dies. A new holder starts without an offset: Telegram sends again what was
 * not confirmed, and the inbox stores each update id once.
 */
import type { Api } from 'grammy';
import type { Update } from 'grammy/types';
import type { Kysely } from 'kysely';
import type { Database } from '../../engine/store/database.ts';
import { holdLease } from '../../engine/store/leases.ts';
import { describeError, isGrammyError } from './bot-api.ts';

/** The allowed update types (Bot API `allowed_updates`): messages and button taps. */
export const ALLOWED_UPDATES = ['message', 'callback_query'] as const;

/** The poller's state as the owner sees it. */
export interface PollerState {
  running: boolean;
  lastError: string | null;
  lastErrorAt: Date | null;
  lastPollAt: Date | null;
  lastUpdateAt: Date | null;
  /** True while another node holds the bot's lease and polls (this one waits to take over). */
  standby: boolean;
}

/** Options of {@link Poller}. */
export interface PollerOptions {
  /** `getUpdates` timeout, seconds (default 25). */
  timeoutSeconds?: number;
  /**
   * An empty answer faster than this (ms, default 500) is followed by a pause up to it: protects
   * against a Bot API server that ignores `timeout` and would otherwise be polled in a busy loop.
   */
  minEmptyPollMs?: number;
  /** Poll only while holding this lease (several nodes); absent: always poll. */
  lease?: { db: Kysely<Database>; name: string; holder: string; ms: number };
}

export class Poller {
  readonly state: PollerState = {
    running: false,
    lastError: null,
    lastErrorAt: null,
    lastPollAt: null,
    lastUpdateAt: null,
    standby: false,
  };
  private abort = new AbortController();
  private loop: Promise<void> | undefined;

  /**
   * @param api a client without auto-retry (this loop has its own backoff and must see errors).
   * @param store stores one update; resolves when it is durable. Throwing stops the batch and the
   *   same updates are fetched again.
   */
  constructor(
    private readonly api: Api,
    private readonly store: (update: Update) => Promise<void>,
    private readonly onError: (message: string) => void,
    private readonly options: PollerOptions = {},
  ) {}

  /** Starts the loop (idempotent). */
  start(): void {
    if (this.loop) return;
    this.abort = new AbortController();
    this.state.running = true;
    const signal = this.abort.signal;
    const lease = this.options.lease;
    this.state.standby = lease !== undefined;
    const loop = lease
      ? holdLease({ ...lease, signal, onError: (err) => this.fail(err) }, async (held) => {
          this.state.standby = false;
          try {
            await this.run(held);
          } finally {
            this.state.standby = true;
          }
        })
      : this.run(signal);
    this.loop = loop.finally(() => {
      this.state.standby = false;
      this.state.running = false;
      this.loop = undefined;
    });
  }

  /** Stops the loop and waits for it (an in-flight `getUpdates` is aborted). */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
  }

  private fail(err: unknown): string {
    let message = describeError(err);
    if (isGrammyError(err) && err.error_code === 409)
      message = `409: otro proceso o un webhook recibe las actualizaciones de este bot (${err.description})`;
    if (isGrammyError(err) && err.error_code === 401)
      message = `401: Telegram rechazó el token (${err.description})`;
    this.state.lastError = message;
    this.state.lastErrorAt = new Date();
    this.onError(message);
    return message;
  }

  private async run(signal: AbortSignal): Promise<void> {
    const timeout = this.options.timeoutSeconds ?? 25;
    const minEmpty = this.options.minEmptyPollMs ?? 500;
    let offset: number | undefined;
    let failures = 0;
    while (!signal.aborted) {
      const started = Date.now();
      try {
        const updates = await this.api.getUpdates(
          { timeout, allowed_updates: [...ALLOWED_UPDATES], ...(offset !== undefined ? { offset } : {}) },
          signal as Parameters<Api['getUpdates']>[1],
        );
        this.state.lastPollAt = new Date();
        if (failures > 0 || this.state.lastError) {
          failures = 0;
          this.state.lastError = null;
          this.state.lastErrorAt = null;
        }
        for (const update of updates) {
          await this.store(update);
          offset = update.update_id + 1;
          this.state.lastUpdateAt = new Date();
        }
        const elapsed = Date.now() - started;
        if (updates.length === 0 && elapsed < minEmpty) await sleep(minEmpty - elapsed, signal);
      } catch (err) {
        if (signal.aborted) break;
        failures++;
        this.fail(err);
        // 1 s, 2 s, 4 s … up to 60 s; a refused token is retried slowly (the owner must act).
        const refused = isGrammyError(err) && (err.error_code === 401 || err.error_code === 404);
        await sleep(refused ? 60_000 : Math.min(60_000, 1000 * 2 ** Math.min(failures - 1, 6)), signal);
      }
    }
  }
}

/** Waits `ms`, or less when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
