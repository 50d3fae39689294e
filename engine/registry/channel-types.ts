/**
 * The channel adapter contract (DESIGN.md, issue 25 §2): a core every adapter has (id, capabilities,
 * send, routes) and an optional `connections` part for channels that connect bots one by one
 * (Telegram, WhatsApp). docs/adapters.md walks through it with a worked example.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import type { JobHandler, ResolvedDefinition } from '../jobs/index.ts';
import type { StoredObject } from '../storage/index.ts';
import type {
  ChannelCapabilities,
  InboundMessage,
  OutboundMessage,
  RuntimeContext,
  SendReceipt,
  TurnBot,
} from './types.ts';

/**
 * What a channel adapter receives at start (issue 5): the runtime plus the services a channel
 * needs to read stored files and keep its durable inbox. Its `dispatch` replies through this
 * adapter, whatever `inbound.channel` says (the web adapter serves `web`, `ialanding`, `test`).
 */
export interface ChannelContext<Settings = unknown> extends RuntimeContext {
  /** The adapter's settings, parsed from the environment with its `envSchema` (undefined without one). */
  settings: Settings;
  /**
   * Opens a stored bot file (`chatbot_files.file_url`, a storage key) from whichever storage holds
   * it (local disk or S3, engine/storage); null for an http address (the channel passes it on).
   * @throws MissingFileError (permanent: `isMissingFile`) when the key has no stored object.
   */
  openFile(fileUrl: string): Promise<StoredObject | null>;
  /** The durable inbox: store an update before acknowledging it; handled in order per chat. */
  inbox: ChannelInboxPort;
}

/** The inbox as an adapter sees it (engine/channels/inbox.ts). */
export interface ChannelInboxPort {
  /**
   * Stores an update (idempotent on `updateKey`) and queues it for the adapter's `handleUpdate`.
   * @returns `stored`, or `duplicate` when the same key was stored before (nothing queued).
   */
  accept(update: {
    channel: string;
    chatbotId: string;
    updateKey: string;
    chatId: string;
    payload: unknown;
  }): Promise<'stored' | 'duplicate'>;
  /** Queues the pending updates of a bot (after it connects): what a crash or a pause left behind. */
  recover(channel: string, chatbotId?: string): Promise<number>;
}

/** A connection's health, shown to the owner (issue 5: a dead connection must be visible). */
export interface ConnectionHealth {
  /** `webhook` or `polling` for Telegram; adapters name their own. */
  mode: string;
  /**
   * `connected`: receiving; `error`: configured but the last attempt failed (see `lastError`);
   * `paused`: stopped by the supervisor (no days left); `disconnected`: no credentials.
   */
  state: 'connected' | 'error' | 'paused' | 'disconnected';
  /** The adapter's own text (Spanish or the provider's words): for the operator and the logs. */
  lastError: string | null;
  /**
   * Issue 29: `lastError` as a code the dashboard translates, set by the owner's routes
   * (adapters/shared/channel-errors.ts `ownerHealth`).
   */
  lastErrorCode?: string | null;
  /** The code's parameters (a chat number, a file name, an HTTP status). */
  lastErrorParams?: Record<string, string | number>;
  /** ISO time of the last error. */
  lastErrorAt: string | null;
  /** ISO time of the last update received. */
  lastUpdateAt: string | null;
  /** Updates the channel holds for this bot and has not delivered (Telegram `pending_update_count`). */
  pendingUpdates: number | null;
}

/**
 * A channel adapter's core (DESIGN.md, issue 5, issue 25 §2): it parses what arrives (webhooks,
 * pollers, HTTP routes) into {@link InboundMessage}s for `ctx.dispatch`, and sends what the engine
 * gives it. The engine owns the reply: it runs the turn, builds the outgoing message, runs the
 * plugins' transformers, stores the conversation and calls `send` (docs/adapters.md).
 *
 * A channel that keeps connections per bot (Telegram, WhatsApp) adds {@link ChannelConnections};
 * one that answers inside HTTP requests (web) leaves it out.
 */
export interface ChannelAdapter<Config = unknown, Settings = unknown> {
  /** The channel id on conversation rows (`telegram`, `whatsapp`, `web`, …). */
  id: string;
  /**
   * Other channel ids on conversation rows whose followers this adapter reaches (issue 27 §3: the
   * web adapter's `ialanding`, whose visitors get pushed messages like the widget's). The Outbox
   * delivers to them through this adapter and stores the message under the row's own channel.
   */
  alsoServes?: readonly string[];
  capabilities: ChannelCapabilities;
  /**
   * The channel's settings, read from the environment (README lists each variable): parsed once
   * before `start` by the same parser as plugins' (engine/registry `parseSettings`: an empty variable
   * is unset; a bad value stops the start, naming it), and given as `ctx.settings`.
   */
  envSchema?: z.ZodType<Settings>;
  /** Boots the channel (no bot connected yet). */
  start(ctx: ChannelContext<Settings>): Promise<void>;
  /** Disconnects every bot and releases resources. */
  stop(): Promise<void>;
  /**
   * Sends a message to a follower of a bot, as it is: the engine has already applied the outbound
   * transformers (a turn's reply, an owner's reply, a broadcast, a reminder).
   * @param to the bot (identity, language) and, for a reply, the follower's message answered.
   * @returns the ids of the messages sent, when the channel has them (a reply to one comes back as
   *   {@link InboundMessage.replyTo}).
   * @throws when the channel refuses (the error's message says why, without secrets).
   */
  send(
    chatbotId: string,
    chatId: string,
    message: OutboundMessage,
    to?: SendContext,
  ): Promise<SendReceipt | undefined>;
  /**
   * Shows "typing…" to a follower while the engine works on their message (`deliver: 'send'`
   * only). Called when the turn starts, again every {@link typingEveryMs} when set, and the
   * function it returns (if any) is called once when the turn ends. Failures must not throw.
   */
  typing?(chatbotId: string, chatId: string, inbound: InboundMessage): (() => void) | undefined;
  /** How often {@link typing} is repeated while a turn runs, ms (Telegram: an action lasts 5 s). */
  typingEveryMs?: number;
  /**
   * Downloads media a follower sent (by its `channelFileId`), for plugins that read it (voice
   * transcription). Channels without media downloads leave it out.
   * @returns the bytes and their MIME type; throws when the channel no longer has them.
   */
  downloadMedia?(chatbotId: string, channelFileId: string): Promise<{ data: Buffer; mime: string | null }>;
  /**
   * Routes: webhooks are mounted under `/channels/<id>`; `apiRoutes` at the root for the spec's
   * `/api/...` paths (e.g. `/api/verify-telegram`).
   */
  routes?: FastifyPluginAsync;
  apiRoutes?: FastifyPluginAsync;
  /**
   * The adapter's durable jobs (engine/jobs), registered at boot like plugins' `jobs` (build each
   * with `pluginJob`); the adapter sends them with `ctx.jobs` (issue 28 §2: the IALanding visitors'
   * Web Push, adapters/web/visitor-push.ts).
   */
  jobs?: Array<{ definition: ResolvedDefinition; handler: JobHandler<unknown> }>;
  /** Per-bot connections, for channels that hold them (see {@link ChannelConnections}). */
  connections?: ChannelConnections<Config>;
}

/** What {@link ChannelAdapter.send} is told besides the message. */
export interface SendContext {
  /** The bot sending (as the outbound transformers saw it): its language for the channel's own texts. */
  bot: TurnBot;
  /**
   * The follower's message this answers, when it is a turn's reply (a file the channel refuses is
   * then recorded for the owner rather than failing the reply).
   */
  inbound?: InboundMessage;
  /**
   * Who a message nobody just asked for is from, when the engine stores it (`Outbox.send`): an
   * owner's hand-written reply (`owner`) may be held by a channel that cannot deliver it now
   * (issue 28: WhatsApp's Cloud API outside the 24-hour window), a bot's message (a reminder) not.
   */
  sender?: 'bot' | 'owner';
}

/**
 * The connections part of a channel adapter (issue 5): one adapter serves every bot connected to
 * its channel in this process; the supervisor (engine/channels/supervisor.ts) asks which bots have
 * credentials, connects those whose owner has days left and disconnects the others. Updates go
 * through the durable inbox: the adapter's webhook or poller calls `ctx.inbox.accept` before it
 * acknowledges, and the inbox calls `handleUpdate` in order per chat.
 */
export interface ChannelConnections<Config = unknown> {
  /** The stored connection config of one bot (decrypted), validated before `connect`. */
  configSchema: z.ZodType<Config>;
  /** Bots that have this channel's credentials stored, whatever their owner's days. */
  configured(): Promise<string[]>;
  /** Bots connected in this process now. */
  connected(): string[];
  /** Connects one bot (idempotent). Errors are recorded in its health, not thrown. */
  connect(chatbotId: string): Promise<void>;
  /**
   * Stops receiving for one bot (idempotent). `paused` keeps its credentials (no days left);
   * otherwise the adapter also tells the channel (e.g. deletes the webhook).
   */
  disconnect(chatbotId: string, reason: 'paused' | 'removed' | 'shutdown'): Promise<void>;
  /** Handles one stored update (called by the inbox, in order per chat). Throwing retries it later. */
  handleUpdate(row: { chatbotId: string; chatId: string; payload: unknown }): Promise<void>;
  /** The bot's connection health. */
  health(chatbotId: string): Promise<ConnectionHealth>;
}
