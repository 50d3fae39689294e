/**
 * The durable inbox (issue 5). Channels store every update before they acknowledge it; the
 * inbox then hands it to its adapter's `connections.handleUpdate`, one at a time per chat (a follower's burst
 * is answered in order) and in parallel across chats. A handler that throws is retried with
 * backoff; after `maxAttempts` the update is marked `failed` with its error for the operator.
 * A {@link DeferUpdate} leaves the row pending without counting an attempt (the bot is not
 * connected here, e.g. paused for lack of days): `recover` queues it again when the bot connects,
 * and on every start, so a crash between storing and answering loses nothing.
 *
 * While the database is unreachable (issue 24 §1) nothing is lost and nothing ends the process: an
 * update whose claim or handler fails with a connection error (engine/store/errors.ts) is tried
 * again with the same backoff without counting an attempt, so an outage never marks an update
 * `failed`; an update that was handled but could not be marked done is marked again (not handled
 * again) once the database answers. The recovery, pruning and claim-renewal timers log a failed
 * query and try again at their next tick.
 */
import type { Kysely } from 'kysely';
import { withLogContext } from '../log-context.ts';
import type { Logger } from '../logger.ts';
import type { ChannelInboxPort } from '../registry/index.ts';
import type { Database } from '../store/database.ts';
import { isDatabaseUnavailable } from '../store/errors.ts';
import {
  claimUpdate,
  type InboxRow,
  markUpdateDone,
  markUpdateFailed,
  pendingUpdates,
  pruneDoneUpdates,
  releaseUpdate,
  renewClaims,
  storeUpdate,
} from '../store/queries/inbox.ts';

/** Handles one stored update; throwing retries it. */
export type UpdateHandler = (row: InboxRow) => Promise<void>;

/** Thrown by a handler to leave an update pending for later (no attempt counted). */
export class DeferUpdate extends Error {
  override name = 'DeferUpdate';
}

/** Options of {@link ChannelInbox}. */
export interface InboxOptions {
  /** Attempts before an update is marked failed (default 5). */
  maxAttempts?: number;
  /** Wait before retry `attempt` (1-based), ms (default 1 s, 2 s, 4 s, … capped at 30 s). */
  retryDelayMs?: (attempt: number) => number;
  /** Where `accept` inserts (the store's `ingest`: not queued behind handlers' queries); default `db`. */
  ingestDb?: Kysely<Database>;
  /**
   * How long a claim holds without renewal, ms (default 60 s). A process renews its claims every
   * third of it while it works; a claim older than this belongs to a dead process and is taken over.
   */
  leaseMs?: number;
  /**
   * Only this process can write the database (embedded PGlite locks its data dir): claims are
   * skipped, saving a query per update on its single connection.
   */
  singleProcess?: boolean;
}

export class ChannelInbox implements ChannelInboxPort {
  private readonly handlers = new Map<string, UpdateHandler>();
  /** The tail of each chat's queue, keyed `channel\0chatbot\0chat`. */
  private readonly chains = new Map<string, Promise<void>>();
  /** Rows queued or running in this process (so `recover` does not queue them twice). */
  private readonly queued = new Set<string>();
  private readonly maxAttempts: number;
  private readonly retryDelayMs: (attempt: number) => number;
  private closed = false;
  private pruneTimer: NodeJS.Timeout | undefined;
  private recoveryTimer: NodeJS.Timeout | undefined;
  private readonly heartbeat: NodeJS.Timeout;
  /** Rows this process has claimed and is handling now (their claims are renewed). */
  private readonly running = new Set<string>();
  private readonly leaseMs: number;
  private readonly singleProcess: boolean;
  private readonly ingestDb: Kysely<Database>;
  /** Waits of retrying handlers, cut short by {@link close}. */
  private readonly wakeOnClose = new Set<() => void>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: Logger,
    options: InboxOptions = {},
  ) {
    this.maxAttempts = options.maxAttempts ?? 5;
    this.ingestDb = options.ingestDb ?? db;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.singleProcess = options.singleProcess ?? false;
    this.heartbeat = setInterval(
      () => {
        if (this.running.size === 0 || this.singleProcess) return;
        renewClaims(this.db, [...this.running]).catch((err) =>
          this.log.warn({ err }, 'could not renew inbox claims'),
        );
      },
      Math.max(200, this.leaseMs / 3),
    );
    this.heartbeat.unref();
    this.retryDelayMs = options.retryDelayMs ?? ((n) => Math.min(30_000, 1000 * 2 ** (n - 1)));
  }

  /** Sets the handler of a channel's updates (the adapter's `connections.handleUpdate`). */
  register(channel: string, handler: UpdateHandler): void {
    this.handlers.set(channel, handler);
  }

  /** Stores an update (one row per `updateKey`) and queues it; see {@link ChannelInboxPort.accept}. */
  async accept(update: Parameters<ChannelInboxPort['accept']>[0]): Promise<'stored' | 'duplicate'> {
    const row = await storeUpdate(this.ingestDb, update);
    if (!row) return 'duplicate';
    this.enqueue(row);
    return 'stored';
  }

  /** Queues the pending rows of a channel (and bot); returns how many were queued. */
  async recover(channel: string, chatbotId?: string): Promise<number> {
    const rows = await pendingUpdates(this.db, channel, {
      leaseMs: this.leaseMs,
      ...(chatbotId ? { chatbotId } : {}),
    });
    let n = 0;
    for (const row of rows) {
      if (this.queued.has(row.id)) continue;
      this.enqueue(row);
      n++;
    }
    if (n > 0) this.log.info({ channel, chatbotId, count: n }, 'pending channel updates queued');
    return n;
  }

  /**
   * Looks for pending updates of every registered channel each lease: what a process that died
   * left claimed becomes free after its lease and is answered here, and what was deferred is tried
   * again. Stopped by {@link close}.
   */
  startRecovery(): void {
    this.recoveryTimer = setInterval(() => {
      for (const channel of this.handlers.keys())
        this.recover(channel).catch((err) => this.log.warn({ err, channel }, 'inbox recovery failed'));
    }, this.leaseMs);
    this.recoveryTimer.unref();
  }

  /**
   * Deletes handled updates older than `keepMs` (default 7 days), now and every `everyMs` (default
   * 1 h), so the table holds what is pending, failed, or recent enough to deduplicate a
   * redelivery (Telegram keeps undelivered updates for 24 h). Stopped by {@link close}.
   */
  startPruning(keepMs = 7 * 86_400_000, everyMs = 3_600_000): void {
    const prune = () =>
      pruneDoneUpdates(this.db, new Date(Date.now() - keepMs))
        .then((n) => n > 0 && this.log.info({ deleted: n }, 'old handled channel updates pruned'))
        .catch((err) => this.log.warn({ err }, 'could not prune channel updates'));
    void prune();
    this.pruneTimer = setInterval(prune, everyMs);
    this.pruneTimer.unref();
  }

  /** Resolves when every queued update has been handled (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.allSettled([...this.chains.values()]);
  }

  /** Stops taking new work and waits up to `timeoutMs` for the running handlers. */
  async close(timeoutMs = 5000): Promise<void> {
    this.closed = true;
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    if (this.recoveryTimer) clearInterval(this.recoveryTimer);
    clearInterval(this.heartbeat);
    for (const wake of [...this.wakeOnClose]) wake();
    await Promise.race([this.idle(), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
  }

  private enqueue(row: InboxRow): void {
    if (this.closed) return; // stays pending; the next start handles it
    if (this.queued.has(row.id)) return; // already queued here (an accept racing a recover)
    const key = `${row.channel}\u0000${row.chatbotId}\u0000${row.chatId}`;
    this.queued.add(row.id);
    const next = (this.chains.get(key) ?? Promise.resolve())
      .then(() => this.run(row))
      .finally(() => {
        this.queued.delete(row.id);
        if (this.chains.get(key) === next) this.chains.delete(key);
      });
    this.chains.set(key, next);
  }

  /** Handles one row with retries; never throws (errors are logged and stored). */
  private async run(row: InboxRow): Promise<void> {
    const handler = this.handlers.get(row.channel);
    if (!handler) {
      this.log.warn({ channel: row.channel }, 'no handler for a stored channel update; left pending');
      return;
    }
    const context = { channel: row.channel, chatbotId: row.chatbotId, updateKey: row.updateKey };
    let attempt = row.attempts;
    /** Tries cut short by an unreachable database (not counted as attempts). */
    let outages = 0;
    for (;;) {
      if (this.closed) return;
      // Claim it first: another process (or this one, racing) may be answering it already.
      if (!this.singleProcess) {
        let claimed: boolean;
        try {
          claimed = await claimUpdate(this.db, row.id, this.leaseMs);
        } catch (err) {
          if (!isDatabaseUnavailable(err)) return; // left pending: recovery takes it up
          outages++;
          this.log.warn({ err, ...context }, 'database unreachable; the update waits for it');
          await this.sleep(this.retryDelayMs(outages));
          continue;
        }
        if (!claimed) return;
      }
      this.running.add(row.id);
      try {
        await withLogContext({ updateKey: row.updateKey }, () => handler(row));
      } catch (err) {
        if (err instanceof DeferUpdate) {
          await releaseUpdate(this.db, row.id).catch(() => {});
          this.running.delete(row.id);
          return;
        }
        this.running.delete(row.id);
        if (isDatabaseUnavailable(err)) {
          // Not the update's fault: tried again once the database answers, no attempt counted.
          outages++;
          this.log.warn({ err, ...context }, 'database unreachable while handling an update; retrying');
          await this.sleep(this.retryDelayMs(outages));
          continue;
        }
        attempt++;
        const final = attempt >= this.maxAttempts;
        const message = err instanceof Error ? err.message : String(err);
        this.log.warn(
          { err, ...context, attempt, final },
          final ? 'channel update failed for good' : 'channel update failed; retrying',
        );
        try {
          await markUpdateFailed(this.db, row.id, message, final);
        } catch (storeErr) {
          // Still claimed: recovery takes it up when the claim's lease ends.
          this.log.error({ err: storeErr }, 'could not record a failed channel update');
          return;
        }
        if (final) return;
        await this.sleep(this.retryDelayMs(attempt));
        continue;
      }
      // Handled (the reply went out): record it, without ever handling it again for a lost write.
      await this.markDone(row, context);
      this.running.delete(row.id);
      return;
    }
  }

  /**
   * Marks a handled update done, trying again with backoff while the database is unreachable
   * (its claim is renewed meanwhile, so no other process takes it up), until the inbox closes.
   */
  private async markDone(row: InboxRow, context: Record<string, string>): Promise<void> {
    for (let tries = 1; ; tries++) {
      try {
        await markUpdateDone(this.db, row.id);
        return;
      } catch (err) {
        if (this.closed || !isDatabaseUnavailable(err)) {
          this.log.error({ err, ...context }, 'could not mark a handled channel update done');
          return;
        }
        this.log.warn({ err, ...context }, 'database unreachable; marking the update done later');
        await this.sleep(this.retryDelayMs(tries));
      }
    }
  }

  /** Waits `ms` (not keeping the process alive), or less when the inbox closes. */
  private sleep(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeOnClose.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.wakeOnClose.add(done);
    });
  }
}
