/**
 * The feature plugin contract (DESIGN.md): what a plugin contributes (middleware, tools, offline
 * dialogues, outbound transformers, routes, jobs, migrations) and the context its `setup` gets.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Migration } from 'kysely/migration';
import type { z } from 'zod';
import type { Mailer } from '../auth/mail.ts';
import type { JobHandler, ResolvedDefinition } from '../jobs/index.ts';
import type { Storage } from '../storage/index.ts';
import type {
  ChannelCapabilities,
  DeliveryTarget,
  InboundMessage,
  OutboundMessage,
  RuntimeContext,
  SendOptions,
  SendReceipt,
  TurnBot,
  TurnContext,
} from './types.ts';

/**
 * What a middleware decides (DESIGN.md: middleware runs before the LLM):
 * - `{ reply }` answers the turn without the LLM;
 * - `{ silent: true }` stores the follower's message and answers nothing (an owner took over);
 * - `{ text }` rewrites the follower's text for the rest of the turn (a transcribed voice note);
 * - `undefined` lets the turn go on unchanged.
 */
export type MiddlewareOutcome =
  | { reply: string }
  | { silent: true; reason: string }
  | { text: string }
  | undefined;

/** Middleware runs before keyword matching and the LLM, in plugin order. */
export type TurnMiddleware = (turn: TurnContext) => Promise<MiddlewareOutcome> | MiddlewareOutcome;

/** What a tool's `run` receives besides its input. */
export interface ToolCall {
  turn: TurnContext;
  /**
   * `<turnKey>#<n>` for the turn's n-th tool call: stable when the same follower message is
   * handled again after a crash, so a side effect keyed by it happens once.
   */
  idempotencyKey: string;
}

/** An LLM function tool (function calling); its input is validated with zod before `run`. */
export interface PluginTool<Input = unknown> {
  /** The function name the model sees: `^[a-zA-Z0-9_-]{1,64}$`, unique across plugins. */
  name: string;
  /** What the tool does, for the model. */
  description: string;
  input: z.ZodType<Input>;
  /** Offered only for bots where this is true (e.g. `bot.settings.enable_reservations`); default every bot. */
  enabled?(bot: TurnBot): boolean;
  /**
   * Runs one call. The result (a string, or a JSON-serialisable value) goes back to the model.
   * Throwing sends the error's message back to the model as the result; the turn goes on.
   */
  run(input: Input, call: ToolCall): Promise<unknown>;
}

/** Runs a turn's tools by name, recording each call (offline dialogues use it to book). */
export interface ToolRunner {
  /** The tools offered on this turn. */
  readonly available: ReadonlyArray<PluginTool>;
  /**
   * Validates the input, runs the tool and records the call.
   * @returns `{ ok: true, output }`, or `{ ok: false, error }` for invalid input or a thrown error.
   */
  run(name: string, input: unknown): Promise<{ ok: true; output: unknown } | { ok: false; error: string }>;
}

/**
 * An offline dialogue: with no LLM configured, a plugin may answer a turn deterministically
 * (e.g. a booking dialogue driving its own tools). The first handler that returns a reply wins;
 * the offline responder answers otherwise.
 */
export type OfflineHandler = (
  turn: TurnContext,
  tools: ToolRunner,
) =>
  | Promise<{ reply: string; choices?: OutboundMessage['choices'] } | undefined>
  | { reply: string; choices?: OutboundMessage['choices'] }
  | undefined;

/** Where an outgoing message goes, as an outbound transformer sees it. */
export interface OutboundContext {
  bot: TurnBot;
  channel: string;
  chatId: string;
  capabilities: ChannelCapabilities;
  /** The follower's message being answered, when it is a reply. */
  inbound?: InboundMessage;
}

/** Wraps the sending of a message (voice replies, effects). */
export type OutboundTransformer = (
  message: OutboundMessage,
  to: OutboundContext,
) => Promise<OutboundMessage> | OutboundMessage;

/**
 * The handler of one of a plugin's job definitions (engine/jobs `defineJob`; name it
 * `<plugin id>.<what>`). It may run more than once for one job (at least once): make it idempotent.
 * Build it with `pluginJob(definition, handler)` for the data's type.
 */
export interface PluginJob {
  definition: ResolvedDefinition;
  handler: JobHandler<unknown>;
}

/** A recurring run of one of the plugin's jobs (its handler is in the plugin's `jobs`). */
export interface CronJob {
  definition: ResolvedDefinition;
  /** Five-field cron expression, e.g. `0 3 * * *`. */
  cron: string;
  /** IANA time zone the expression is read in (default UTC). */
  tz?: string;
  /** The data of every run (checked with the definition's schema). */
  data: unknown;
}

/**
 * What a plugin keeps of an owner (issue 26 §5): their export and their account's deletion reach
 * the plugin's tables through these, never by reading them from outside the plugin.
 */
export interface OwnerDataHooks {
  /**
   * The owner's rows in the plugin's tables (their bots' too), JSON-serialisable, with secrets
   * (tokens, password hashes, credentials) left out. Put under `plugins.<id>` in the export.
   */
  export(ownerId: string): Promise<unknown>;
  /**
   * Runs before the owner's rows are deleted (the plugin's tables then go by their cascades), for
   * what a cascade cannot do (e.g. end a subscription elsewhere).
   * @throws to stop the deletion (nothing is deleted then).
   */
  beforeDelete?(ownerId: string): Promise<void>;
  /**
   * The objects the plugin keeps of the owner in the file storage (`ctx.storage`; issue 27 §3: the
   * owner's voice notes to web visitors): `key` the storage key, `path` where the export's ZIP puts
   * it (under `plugins/<id>/`), `createdAt` its time. The account deletion removes them after the
   * rows; read before, so the plugin's rows may go by their cascades.
   */
  storedObjects?(ownerId: string): Promise<OwnerStoredObject[]>;
}

/** One object of {@link OwnerDataHooks.storedObjects}. */
export interface OwnerStoredObject {
  key: string;
  path: string;
  createdAt: Date;
}

/** One sample of a {@link PluginGauge}: its labels (one value per label name) and its value. */
export interface GaugeSample {
  labels: Record<string, string>;
  value: number;
}

/**
 * A gauge a plugin adds to `GET /metrics` (issue 26 §3), read at scrape time from what only the
 * plugin knows (its own tables): the engine never reads a plugin's tables (engine/metrics.ts
 * registers it as a prom-client Gauge and fills it from `collect`).
 */
export interface PluginGauge {
  /** Prometheus name (`charla_<what>`), unique among the engine's and every plugin's metrics. */
  name: string;
  /** The `# HELP` text. */
  help: string;
  /** The label names each sample gives a value for (none by default). */
  labelNames?: readonly string[];
  /**
   * The gauge's samples now. A throw leaves the gauge empty for this scrape and is logged (not
   * when a table does not exist yet: the plugin's migrations are still running).
   */
  collect(): Promise<GaugeSample[]>;
}

/** The closed list of things a plugin can contribute (DESIGN.md). */
export interface PluginContributions {
  tools?: PluginTool[];
  /** Text added to every system prompt; may depend on the bot (return '' to add nothing). */
  promptFragments?: Array<(bot: TurnBot) => string | Promise<string>>;
  middleware?: TurnMiddleware[];
  offline?: OfflineHandler[];
  outbound?: OutboundTransformer[];
  /** Fastify plugin mounted under `/plugins/<id>` (or the spec's `/api/...` paths with `prefix: ''`). */
  routes?: { plugin: FastifyPluginAsync; prefix?: string };
  jobs?: PluginJob[];
  cron?: CronJob[];
  /** The owner's data in the plugin's tables, for their export and deletion (issue 26 §5). */
  ownerData?: OwnerDataHooks;
  /** Gauges added to `GET /metrics`, read at each scrape (issue 26 §3). */
  metrics?: PluginGauge[];
  /**
   * A speech-to-text server (the voice plugin's `CHARLA_STT_BASE_URL` client): the engine reads the
   * words of owners' audio and video files with it (issue 30 §1). `audio` is the file's bytes,
   * `mime` its type, `language` a two-letter hint; resolves with the words heard.
   */
  transcribe?: (audio: Buffer, mime: string | null, language?: string) => Promise<string>;
  dispose?: () => Promise<void>;
}

/** What a plugin's `setup` receives: the runtime, its settings, and a way to reach followers. */
export interface PluginContext<Settings = unknown> extends RuntimeContext {
  /** The plugin's settings, parsed from the environment with its `envSchema` (undefined without one). */
  settings: Settings;
  /**
   * Sends a message to a follower through the channel they used, after the plugins' outbound
   * transformers, and stores it in the conversation.
   * @throws AppError BAD_REQUEST when the channel cannot push messages; the adapter's error when
   *   the channel refuses (nothing is stored then).
   * @returns the channel's ids of the messages sent (empty when it has none).
   */
  send(target: DeliveryTarget, message: OutboundMessage, options?: SendOptions): Promise<SendReceipt>;
  /**
   * What a channel can do (`push`, `voiceNotes`, …), or null for a channel no adapter serves in
   * this process: e.g. whether a reminder can reach a follower there before trying.
   */
  capabilities(channel: string): ChannelCapabilities | null;
  /**
   * Calls `listener` each time messages of a conversation are stored, in this process or another
   * one sharing the database (PostgreSQL LISTEN/NOTIFY; batched, within about 250 ms): e.g. to push
   * an owner's screen live. Resolves with the function that stops listening.
   *
   * `options.onResume` is called when the database connection that carries these events was lost
   * and is back (issue 24 §1): events stored meanwhile were not delivered, so a live view reloads.
   */
  onMessages(
    listener: (event: MessagesEvent) => void,
    options?: { onResume?: () => void },
  ): Promise<() => Promise<void>>;
  /**
   * Absolute path of a stored bot file's key when the storage keeps files on this machine's disk
   * (the local backend's fast path); null for an http address, or with S3 storage (issue 26 §1).
   */
  filePath(fileUrl: string): string | null;
  /**
   * Events between plugins in this process (issue 27 §1): a plugin `emit`s what happened (the
   * reservations plugin: `reservations.booking`), others listen with `on`. See {@link PluginEvents}.
   */
  events: PluginEvents;
  /** The owner mail path (engine/auth/mail.ts: SMTP, or the outbox folder without `SMTP_URL`). */
  mailer: Mailer;
  /**
   * The file storage (engine/storage: local disk or S3), for a plugin that keeps objects of its
   * own (issue 27 §3: the owner's voice notes to web visitors, served under `/files/{key}`). Keys
   * start with the owner's id; the plugin lists them in `ownerData.storedObjects`. Absent in
   * contexts built without one (some tests).
   */
  storage?: Storage;
}

/**
 * A plugin's events (issue 27 §1): named `<plugin id>.<what>`, with a JSON-like payload the
 * listener checks itself (zod). In-process and not durable: a listener that must not lose one
 * stores it (e.g. as a job) before its promise resolves.
 */
export interface PluginEvents {
  /**
   * Calls every listener of `name` in registration order and waits for them; a listener's error
   * is logged, never thrown to the emitter.
   */
  emit(name: string, payload: unknown): Promise<void>;
  /** Adds a listener of `name` (call it in `setup`). */
  on(name: string, listener: (payload: unknown) => Promise<void> | void): void;
}

/** Messages of one conversation were stored (a follower's, a reply, an owner's, a reminder). */
export interface MessagesEvent {
  chatbotId: string;
  channel: string;
  /** The follower's id on the channel (`conversation_messages.user_id`). */
  userId: string;
}

/** A feature plugin (DESIGN.md). */
export interface FeaturePlugin<Settings = unknown> {
  id: string;
  /**
   * The plugin's settings, read from the environment (README lists each variable): parsed once by
   * the registry before `setup`, which gets the result as `ctx.settings` (issue 25 §2: one parser,
   * not one per plugin). An empty variable counts as unset. A value that does not parse stops the
   * start with a message naming the variable.
   */
  envSchema?: z.ZodType<Settings>;
  dependencies?: string[];
  /**
   * The plugin's own tables: a static record of Kysely migrations (names `YYYYMMDDHHmm_snake_case`),
   * applied after Charla's own with the plugin's own migration table (`charla_plugin_<id>_migrations`).
   */
  migrations?: Record<string, Migration>;
  setup(ctx: PluginContext<Settings>): Promise<PluginContributions> | PluginContributions;
}
