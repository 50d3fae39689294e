/**
 * The channel supervisor (issue 5): keeps each adapter's connected bots equal to the bots that
 * have credentials and whose owner has days left (spec 001 §4: at 0 days the bot goes quiet and
 * keeps its token; on renewal it reconnects by itself). It reconciles every `intervalMs`
 * (default 30 s, so a renewal or a coupon brings a bot back within a minute) and at once when a
 * route asks (`reconcile(chatbotId)` after a connect, a disconnect or a payment).
 *
 * A reconciliation that fails (the database is unreachable: issue 24 §1) is logged and tried again
 * after {@link RETRY_AFTER_FAILURE_MS} (or `intervalMs` when shorter), at start-up too: the loop
 * never stops and never ends the process. Bots already connected stay connected meanwhile.
 *
 * Only adapters with a `connections` part (engine/registry/types.ts ChannelConnections) are
 * supervised; a channel that answers inside HTTP requests (web) has none.
 */
import type { Kysely } from 'kysely';
import { isPaid } from '../auth/profiles.ts';
import type { Logger } from '../logger.ts';
import type { ChannelAdapter, ChannelConnections } from '../registry/index.ts';
import type { Database } from '../store/database.ts';
import { chatbotIdsOfOwner, ownerPlans } from '../store/queries/chatbots.ts';
import { notifyMany } from '../store/queries/messages.ts';

/**
 * The NOTIFY channel on which a node tells the others to reconcile a bot (payload: its id), so a
 * token set, removed or renewed on one node connects or disconnects it on every node at once
 * (issue 26 §2), not at their next pass.
 */
export const CHANNELS_CHANNEL = 'charla_channels';

/** How soon a failed reconciliation is tried again, ms. */
export const RETRY_AFTER_FAILURE_MS = 5000;

/** Options of {@link ChannelSupervisor}. */
export interface SupervisorOptions {
  /** Time between full reconciliations, ms (default 30 000). */
  intervalMs?: number;
  /** The clock (tests move it). */
  now?: () => Date;
  /** Subscribes to a NOTIFY channel every node shares (Store.listen); unset: this node alone. */
  listen?: (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>;
}

/** An adapter that holds connections per bot (the only ones the supervisor manages). */
interface Connected {
  id: string;
  connections: ChannelConnections;
}

export class ChannelSupervisor {
  private timer: NodeJS.Timeout | undefined;
  /** Serialises work on one bot, keyed `adapter\0chatbot`. */
  private readonly locks = new Map<string, Promise<void>>();
  private readonly now: () => Date;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  private unlisten: (() => Promise<void>) | undefined;
  /** The adapters with per-bot connections; the others (web) have nothing to start or stop. */
  private readonly adapters: ReadonlyArray<Connected>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: Logger,
    adapters: ReadonlyArray<ChannelAdapter>,
    private readonly options: SupervisorOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.adapters = adapters.flatMap((a) =>
      a.connections ? [{ id: a.id, connections: a.connections }] : [],
    );
  }

  /**
   * Reconciles every bot now, then every `intervalMs` (sooner after a failure). Resolves after the
   * first reconciliation, failed or not (a failure is logged and retried).
   */
  async start(): Promise<void> {
    this.stopped = false;
    this.unlisten = await this.options
      .listen?.(CHANNELS_CHANNEL, (chatbotId) => {
        if (!this.stopped)
          this.reconcileHere(chatbotId).catch((err: unknown) =>
            this.log.warn({ err, chatbotId }, 'could not reconcile a bot another node changed'),
          );
      })
      .catch((err: unknown) => {
        this.log.warn(
          { err },
          'could not listen for other nodes’ channel changes; the 30 s pass covers them',
        );
        return undefined;
      });
    await this.tick();
  }

  /** One reconciliation, then the timer of the next one. */
  private async tick(): Promise<void> {
    const interval = this.options.intervalMs ?? 30_000;
    let next = interval;
    this.running = this.reconcileAll().catch((err: unknown) => {
      next = Math.min(interval, RETRY_AFTER_FAILURE_MS);
      this.log.warn({ err, retryInMs: next }, 'channel reconciliation failed; retrying');
    });
    await this.running;
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), next);
    this.timer.unref();
  }

  /** Stops the timer and disconnects every bot (their credentials stay). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.unlisten?.().catch(() => {});
    await this.running;
    for (const { connections } of this.adapters) {
      await Promise.allSettled(connections.connected().map((id) => connections.disconnect(id, 'shutdown')));
    }
  }

  /** Brings every adapter's connections in line with credentials and days. */
  async reconcileAll(): Promise<void> {
    for (const adapter of this.adapters) {
      const configured = await adapter.connections.configured();
      const allowed = await this.allowed(configured);
      const connected = new Set(adapter.connections.connected());
      const work: Array<Promise<void>> = [];
      for (const id of configured) {
        if (allowed.has(id) && !connected.has(id)) work.push(this.apply(adapter, id, 'connect'));
        if (!allowed.has(id) && connected.has(id)) work.push(this.apply(adapter, id, 'paused'));
      }
      const known = new Set(configured);
      for (const id of connected) if (!known.has(id)) work.push(this.apply(adapter, id, 'removed'));
      await Promise.all(work);
    }
  }

  /**
   * Reconciles one bot on every adapter now (after a connect, a disconnect or a renewal), here and,
   * through {@link CHANNELS_CHANNEL}, on every other node.
   */
  async reconcile(chatbotId: string): Promise<void> {
    await this.reconcileHere(chatbotId);
    if (this.options.listen)
      await notifyMany(this.db, [{ channel: CHANNELS_CHANNEL, payload: chatbotId }]).catch((err: unknown) =>
        this.log.warn({ err, chatbotId }, 'could not tell the other nodes to reconcile a bot'),
      );
  }

  /** Reconciles one bot on this node's adapters. */
  private async reconcileHere(chatbotId: string): Promise<void> {
    for (const adapter of this.adapters) {
      const configured = (await adapter.connections.configured()).includes(chatbotId);
      const allowed = configured && (await this.allowed([chatbotId])).has(chatbotId);
      const connected = adapter.connections.connected().includes(chatbotId);
      if (allowed && !connected) await this.apply(adapter, chatbotId, 'connect');
      else if (!allowed && connected) await this.apply(adapter, chatbotId, configured ? 'paused' : 'removed');
    }
  }

  /** Reconciles every bot of an owner now (after a payment, a coupon or a grant changed their days). */
  async reconcileOwner(userId: string): Promise<void> {
    for (const id of await chatbotIdsOfOwner(this.db, userId)) await this.reconcile(id);
  }

  /** True when the bot's owner has days left (or a paid plan), so its channels may run. */
  async mayRun(chatbotId: string): Promise<boolean> {
    return (await this.allowed([chatbotId])).has(chatbotId);
  }

  private async allowed(ids: readonly string[]): Promise<Set<string>> {
    const now = this.now();
    const plans = await ownerPlans(this.db, ids);
    return new Set(plans.filter((p) => isPaid(p, now)).map((p) => p.chatbotId));
  }

  private apply(
    adapter: Connected,
    chatbotId: string,
    action: 'connect' | 'paused' | 'removed',
  ): Promise<void> {
    const key = `${adapter.id}\u0000${chatbotId}`;
    const next = (this.locks.get(key) ?? Promise.resolve())
      .then(async () => {
        const connected = adapter.connections.connected().includes(chatbotId);
        if (action === 'connect' && !connected) {
          this.log.info({ channel: adapter.id, chatbotId }, 'connecting bot');
          await adapter.connections.connect(chatbotId);
        } else if (action !== 'connect' && connected) {
          this.log.info({ channel: adapter.id, chatbotId, reason: action }, 'disconnecting bot');
          await adapter.connections.disconnect(chatbotId, action);
        }
      })
      .catch((err) => this.log.error({ err, channel: adapter.id, chatbotId }, `bot ${action} failed`))
      .finally(() => {
        if (this.locks.get(key) === next) this.locks.delete(key);
      });
    this.locks.set(key, next);
    return next;
  }
}
