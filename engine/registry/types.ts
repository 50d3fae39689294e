/**
 * The registry's contracts (DESIGN.md, the typed registry): what a channel adapter and a feature
 * plugin are, what they receive, and what a turn looks like to them. engine/registry/index.ts
 * re-exports everything here with the {@link Registry} that runs the contributions.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { z } from 'zod';
import type { JobHandler, JobQueue, ResolvedDefinition } from '../jobs/index.ts';
import type { Logger } from '../logger.ts';
import type { Attachment, ContenedorEmpatico, FileRef, HistoryItem } from '../schemas.ts';
import type { Chatbot, ChatbotFile, Database } from '../store/database.ts';

/** A follower as a channel identifies them. */
export interface FollowerRef {
  /** The follower's id on the channel (Telegram chat id, WhatsApp id, web visitor id). */
  id: string;
  username?: string | null;
}

/**
 * Media a follower sent with a message (a voice note, a photo, a document). The engine stores it
 * with the conversation; plugins may read its bytes through {@link TurnContext.media}.
 */
export interface InboundAttachment {
  /** What it is: `voice`, `audio`, `photo`, `video`, `document`, `sticker`, … */
  type: string;
  /** The channel's own reference to the bytes (Telegram `file_id`, WhatsApp media id), if any. */
  channelFileId?: string;
  /** A public address of the bytes, if the channel gives one. */
  url?: string;
  mime?: string;
  /**
   * The bytes themselves, when the client sent them with the message (an HTTP client's recording):
   * {@link TurnContext.media} gives them without asking a channel. Never stored.
   */
  data?: Buffer;
}

/** A message from a follower, normalised by its adapter (DESIGN.md, the one path). */
export interface InboundMessage {
  chatbotId: string;
  /** Channel id: `telegram`, `whatsapp`, `web`, `test`, `cli`, … */
  channel: string;
  follower: FollowerRef;
  /** The follower's words; may be empty when `attachments` carry the message (a voice note). */
  text: string;
  /** Media the follower sent (stored with the conversation; plugins may transcribe it). */
  attachments?: InboundAttachment[];
  /** The channel's own message id: a retried message with the same id is answered once. */
  messageId: string;
  /** History the client holds (web clients send it); when absent the store's history is used. */
  history?: HistoryItem[];
  /** Ids of the files the client last offered (`archivosMostrados`). */
  offered?: string[];
  /** Ids or names of files the client says were already sent (`archivosEnviados`). */
  sent?: string[];
  /**
   * The id (as {@link SendReceipt.messageIds} gives it) of the message this one answers, when the
   * follower used the channel's reply (Telegram `reply_to_message`).
   */
  replyTo?: string;
}

/** What a channel reports after sending: the ids of the messages it sent, in the inbound id format. */
export interface SendReceipt {
  /** Channel message ids (e.g. Telegram `<chat id>:<message_id>`); empty when the channel has none. */
  messageIds: string[];
}

/** One tool call made during a turn, kept with the turn (for the owner, and so a replay calls nothing). */
export interface ToolCallRecord {
  /** `<plugin id>.<tool name>` as the model saw it (the tool's `name`). */
  name: string;
  plugin: string;
  /** The input as the model sent it (validated when `error` is false). */
  input: unknown;
  /** The result given back to the model (JSON-serialisable), or the error message. */
  output: unknown;
  /** True when the input was invalid or the tool threw; the model got the message as the result. */
  error: boolean;
}

/** The engine's answer to one turn. */
export interface TurnResult {
  /** The reply text; empty when `silent`. */
  reply: string;
  /**
   * The follower's message as the engine understood and stored it: their words, a middleware's
   * rewrite (the transcript of a voice note), or the media's name (`[nota de voz]`).
   */
  heard: string;
  attachment: Attachment | null;
  /** Ids of every file sent in this conversation so far, this turn's included. */
  archivosEnviados: string[];
  contenedorEmpatico: ContenedorEmpatico;
  /** True when no LLM is configured and the offline responder answered. */
  offline: boolean;
  /** True when the LLM failed and the follower got the failure text. */
  failed: boolean;
  /** True when this message id was answered before and the stored answer is returned. */
  duplicate: boolean;
  /**
   * True when a plugin kept the bot quiet (an owner took over the chat): the follower's message is
   * stored and nothing is to be sent. Adapters send nothing for a silent result.
   */
  silent: boolean;
  /** Tool calls the model (or an offline dialogue) made in this turn. */
  tools: ToolCallRecord[];
}

/** A message the engine, a plugin or an owner sends out through an adapter. */
export interface OutboundMessage {
  text: string;
  attachment?: Attachment | null;
  /** Files offered for the follower to pick (adapters with `choices` render buttons). */
  choices?: Array<{ id: string; label: string }>;
  /**
   * A voice note to send with (or instead of) the text: OGG/Opus bytes (an outbound transformer
   * such as voice replies sets it). Adapters without `voiceNotes` ignore it.
   */
  voice?: { data: Buffer; mime: 'audio/ogg'; durationS?: number } | null;
}

/** What a channel can do; the engine reads these flags, never a channel's name. */
export interface ChannelCapabilities {
  /** Max characters of one text message; longer replies are split. */
  maxTextLength: number;
  voiceNotes: boolean;
  /** Renders `choices` as buttons. */
  choices: boolean;
  /** Can show tokens as they arrive. */
  streaming: boolean;
  /**
   * Can deliver a message the follower did not just ask for (owner replies, reminders,
   * broadcasts). The web channel answers inside the visitor's request unless it pushes live.
   */
  push: boolean;
}

/** Services an adapter or plugin receives. */
export interface RuntimeContext {
  db: Kysely<Database>;
  log: Logger;
  /** Hands a message to the engine and resolves with its answer. */
  dispatch(inbound: InboundMessage, options?: DispatchOptions): Promise<TurnResult>;
  /** Absolute base URL of this server, when known. */
  publicUrl: string | undefined;
  /** True when no LLM is configured: replies come from the offline responder (issue 10 §6). */
  offline: boolean;
  /** Settings from the environment (e.g. `TELEGRAM_API_ROOT`); each adapter or plugin validates its own. */
  env: Readonly<Record<string, string | undefined>>;
  /** The clock (tests move it). */
  now(): Date;
  /** Encrypts and decrypts credentials at rest (AES-256-GCM, engine/secrets.ts). */
  secrets: {
    encrypt(plain: string): string;
    decrypt(sealed: string): string;
    /** A stable per-purpose secret (e.g. a webhook secret token), see engine/secrets.ts. */
    derive(purpose: string, value: string): string;
  };
  /** Resolves the signed-in owner of a request or throws 401 with the spec's text ("Debes iniciar sesión."). */
  requireOwner(req: FastifyRequest): Promise<{ id: string; email: string }>;
  /** True when the bot's owner has days left (or a paid plan), so its channels may run (spec 001 §4). */
  mayRun(chatbotId: string): Promise<boolean>;
  /** Asks the channel supervisor to reconcile one bot now (after a connect, a disconnect, a renewal). */
  reconcile(chatbotId: string): Promise<void>;
  /** Reconciles every bot of an owner now (after their days change). */
  reconcileOwner(userId: string): Promise<void>;
  /** Durable scheduled jobs, claimed once across processes (engine/jobs). */
  jobs: JobsPort;
  /** The built assets folder (`dist/`: dashboard, widget, site), for code that serves pages or scripts. */
  distDir: string;
  /**
   * The server's language model for a plugin's own completions (e.g. the site assistant), the same
   * one the engine answers followers with; null when none is configured (offline).
   */
  llm: LlmPort | null;
  /**
   * Rate limits shared by every process (engine/rate-limits.ts): count a hit on named limits
   * before the work they guard, and answer 429 with `retryAfterS` when `allowed` is false.
   */
  limits: LimitsPort;
  /** Bots as the engine reads them (a short-lived cache shared with the turn). */
  bots: BotsPort;
}

/** See {@link RuntimeContext.limits}; engine/rate-limits.ts RateLimiter implements it. */
export type LimitsPort = Pick<
  import('../rate-limits.ts').RateLimiter,
  'hit' | 'refund' | 'clear' | 'exhausted' | 'enabled'
>;

/** See {@link RuntimeContext.bots}. */
export interface BotsPort {
  /**
   * A bot, its files (newest first) and its owner's plan and expiry (for `isPaid`,
   * engine/auth/profiles.ts), or undefined when no bot has this id.
   */
  get(chatbotId: string): Promise<
    | {
        bot: Chatbot;
        files: ChatbotFile[];
        owner: { plan: string | null; expires_at: Date | string | null };
      }
    | undefined
  >;
}

/** One message of a completion request. */
export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A plugin's access to the language model (engine/conversation/llm.ts LlmClient, without tools). */
export interface LlmPort {
  /**
   * Completes a chat and resolves with the reply's text.
   * @throws the SDK's error after its own retries (connection, 429, 5xx, time limit), or when the
   *   model returns no text; `signal` aborts the request.
   */
  complete(messages: LlmMessage[], options?: { signal?: AbortSignal }): Promise<string>;
}

/**
 * Durable jobs as adapters and plugins use them (engine/jobs JobQueue): a job is stored in the
 * database, claimed by one process, retried when its handler throws, and survives restarts. Jobs
 * are typed by their definition (`defineJob`); a plugin contributes the handlers of its own
 * definitions (`jobs`) and sends with these methods.
 */
export type JobsPort = Pick<JobQueue, 'send' | 'sendMany' | 'cancel' | 'schedule' | 'unschedule'>;

/** Options of {@link RuntimeContext.dispatch}. */
export interface DispatchOptions {
  /** Called with each piece of the reply as the LLM produces it. */
  onToken?: (text: string) => void;
  signal?: AbortSignal;
}

/** Where an outgoing message goes: one follower of one bot on one channel. */
export interface DeliveryTarget {
  chatbotId: string;
  /** The channel the follower used (`telegram`, `whatsapp`, `web`, …). */
  channel: string;
  /** The follower's id on that channel (`followers.external_id`, `conversation_messages.user_id`). */
  chatId: string;
}

/** Options of {@link PluginContext.send}. */
export interface SendOptions {
  /**
   * Who the stored message is from: `bot` (a reminder, a plugin's notice) or `owner` (a
   * hand-written reply). Default `bot`.
   */
  sender?: 'bot' | 'owner';
  /** Store the message in the conversation (default true). */
  store?: boolean;
}

/**
 * What a channel adapter receives at start (issue 5): the runtime plus the services a channel
 * needs to read stored files, keep its durable inbox and pass messages through the plugins.
 */
export interface ChannelContext extends RuntimeContext {
  /** Absolute path of a stored bot file's key (`chatbot_files.file_url`), or null for an http address. */
  filePath(fileUrl: string): string | null;
  /** The durable inbox: store an update before acknowledging it; handled in order per chat. */
  inbox: ChannelInboxPort;
  /**
   * Passes an outgoing message to a follower of this channel through the plugins' outbound
   * transformers (voice replies, effects). `inbound` is the message being answered, if any.
   */
  transformOutbound(
    message: OutboundMessage,
    to: { chatbotId: string; chatId: string; inbound?: InboundMessage },
  ): Promise<OutboundMessage>;
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
  lastError: string | null;
  /** ISO time of the last error. */
  lastErrorAt: string | null;
  /** ISO time of the last update received. */
  lastUpdateAt: string | null;
  /** Updates the channel holds for this bot and has not delivered (Telegram `pending_update_count`). */
  pendingUpdates: number | null;
}

/**
 * A channel adapter (DESIGN.md, issue 5). One adapter serves every bot connected to its channel
 * in this process: the supervisor (engine/channels/supervisor.ts) asks which bots have
 * credentials, connects those whose owner has days left and disconnects the others. Updates go
 * through the durable inbox: the adapter's webhook or poller calls `ctx.inbox.accept` before it
 * acknowledges, and the inbox calls `handleUpdate` in order per chat.
 */
export interface ChannelAdapter<Config = unknown> {
  id: string;
  /** The stored connection config of one bot (decrypted), validated before `connect`. */
  configSchema: z.ZodType<Config>;
  capabilities: ChannelCapabilities;
  /** Boots the channel (no bot connected yet). */
  start(ctx: ChannelContext): Promise<void>;
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
  /**
   * Sends a message to a follower of a bot (owner replies, broadcasts, reminders), as it is: the
   * caller has already applied the outbound transformers.
   * @returns the ids of the messages sent, when the channel has them (a reply to one comes back as
   *   {@link InboundMessage.replyTo}).
   * @throws when the channel refuses (the error's message says why, without secrets).
   */
  send(chatbotId: string, chatId: string, message: OutboundMessage): Promise<SendReceipt | void>;
  /**
   * Downloads media a follower sent (by its `channelFileId`), for plugins that read it (voice
   * transcription). Channels without media downloads leave it out.
   * @returns the bytes and their MIME type; throws when the channel no longer has them.
   */
  downloadMedia?(chatbotId: string, channelFileId: string): Promise<{ data: Buffer; mime: string | null }>;
  /** Disconnects every bot and releases resources. */
  stop(): Promise<void>;
  /**
   * Routes: webhooks are mounted under `/channels/<id>`; `apiRoutes` at the root for the spec's
   * `/api/...` paths (e.g. `/api/verify-telegram`).
   */
  routes?: FastifyPluginAsync;
  apiRoutes?: FastifyPluginAsync;
}

/** The bot as plugins see it on a turn or a delivery: identity, language and feature flags (spec 000 §3). */
export interface TurnBot {
  id: string;
  user_id: string;
  business_name: string;
  idioma: string;
  /** IANA time zone of the bot's clock. */
  timezone: string;
  enable_audio: boolean;
  enable_web_search: boolean;
  enable_reservations: boolean;
  selected_voice_id: string | null;
}

/** The state of a turn that plugins see (middleware, tools, prompt fragments, offline dialogues). */
export interface TurnContext {
  inbound: InboundMessage;
  bot: TurnBot;
  /** The bot's files (newest first), as the catalogue lists them. */
  files: ReadonlyArray<FileRef & { context: string }>;
  /** The follower's recent messages, oldest first (the client's, or the store's). */
  history: ReadonlyArray<HistoryItem>;
  /** True when no LLM is configured (the offline responder answers). */
  offline: boolean;
  /** `<chatbotId>:<channel>:<followerId>:<messageId>`: stable for one follower message, across replays. */
  turnKey: string;
  /** The engine's clock at the start of the turn. */
  now: Date;
  /** The channel's capabilities (what the reply can carry). */
  capabilities: ChannelCapabilities | null;
  /**
   * Reads the bytes of `inbound.attachments[index]` through the follower's channel.
   * @throws when the channel cannot download media or the attachment has no `channelFileId`.
   */
  media(index: number): Promise<{ data: Buffer; mime: string | null }>;
}

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
  /** Offered only for bots where this is true (e.g. `bot.enable_reservations`); default every bot. */
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
) => Promise<{ reply: string } | undefined> | { reply: string } | undefined;

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
  dispose?: () => Promise<void>;
}

/** What a plugin's `setup` receives: the runtime, its options, and a way to reach followers. */
export interface PluginContext<Options = unknown> extends RuntimeContext {
  options: Options;
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
  /** Absolute path of a stored bot file's key, or null for an http address. */
  filePath(fileUrl: string): string | null;
}

/** Messages of one conversation were stored (a follower's, a reply, an owner's, a reminder). */
export interface MessagesEvent {
  chatbotId: string;
  channel: string;
  /** The follower's id on the channel (`conversation_messages.user_id`). */
  userId: string;
}

/** A feature plugin (DESIGN.md). */
export interface FeaturePlugin<Options = unknown> {
  id: string;
  optionsSchema: z.ZodType<Options>;
  dependencies?: string[];
  /**
   * The plugin's own tables: a static record of Kysely migrations (names `YYYYMMDDHHmm_snake_case`),
   * applied after Charla's own with the plugin's own migration table (`charla_plugin_<id>_migrations`).
   */
  migrations?: Record<string, Migration>;
  setup(ctx: PluginContext<Options>): Promise<PluginContributions> | PluginContributions;
}
