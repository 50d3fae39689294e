/**
 * The registry's contracts (DESIGN.md, the typed registry): what a turn looks like to adapters and
 * plugins, and the runtime they share. The adapter contract is in channel-types.ts, the plugin
 * contract in plugin-types.ts; engine/registry/index.ts re-exports all three with the
 * {@link Registry} that runs the contributions.
 */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { JobQueue } from '../jobs/index.ts';
import type { Logger } from '../logger.ts';
import type { Attachment, ContenedorEmpatico, FileRef, HistoryItem } from '../schemas.ts';
import type { Chatbot, ChatbotFile, Database, ToolCallRecord } from '../store/database.ts';
import type { OutboundTemplate } from './outbound-template.ts';

export type { OutboundTemplate } from './outbound-template.ts';

/** One tool call made during a turn (stored with it: engine/store/database.ts). */
export type { ToolCallRecord };

/** A follower as a channel identifies them. */
export interface FollowerRef {
  /** The follower's id on the channel (Telegram chat id, WhatsApp id, web visitor id). */
  id: string;
  username?: string | null;
  /**
   * The follower's name as the channel knows it (issue 27 §4.2): Telegram's first and last name,
   * WhatsApp's profile name (`pushName`, Cloud `contacts[].profile.name`). The inbox shows it.
   */
  name?: string | null;
  /**
   * How the channel addresses the follower besides their name (issue 27 §4.2): Telegram's
   * `@username`, a WhatsApp number `+34600111222`. The inbox shows it under the name.
   */
  handle?: string | null;
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
  /**
   * A channel command the engine answers itself instead of running a turn: `start` (Telegram's
   * plain `/start`) gets the bot's greeting (engine/conversation/texts.ts `greeting`), and the pair
   * is stored. A command with words after it (`/start <payload>`) is a normal turn: leave it out.
   */
  command?: 'start';
  /**
   * Stores the follower's message without answering it, with the reason kept on the message
   * (`meta.silent`), e.g. WhatsApp's Cloud API outside the 24-hour window: `plugin` is the channel
   * or plugin that decided, `reason` a short code (`24h-window`). Nothing is sent.
   */
  storeOnly?: { plugin: string; reason: string };
}

/** What a channel reports after sending: the ids of the messages it sent, in the inbound id format. */
export interface SendReceipt {
  /** Channel message ids (e.g. Telegram `<chat id>:<message_id>`); empty when the channel has none. */
  messageIds: string[];
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
  /** Passages of the bot's files used in this turn, best first, with their score (issue 30 §3). */
  passages?: Array<{ fileName: string; page: number | null; heading: string; score: number }>;
  /**
   * What an offline dialogue offers to pick (issue 29: a day's free slots); a tap comes back as
   * the choice's label, as if typed. Not stored: a replayed turn has none.
   */
  choices?: OutboundMessage['choices'];
}

/** A message the engine, a plugin or an owner sends out through an adapter. */
export interface OutboundMessage {
  text: string;
  attachment?: Attachment | null;
  /**
   * What the follower may pick: a LIST of files, or a plugin's options such as free slots (issue
   * 29). Adapters with `choices` render buttons; a tap comes back as the label's text.
   */
  choices?: Array<{ id: string; label: string }>;
  /**
   * A voice note to send with (or instead of) the text: OGG/Opus bytes (an outbound transformer
   * such as voice replies sets it). Adapters without `voiceNotes` ignore it.
   */
  voice?: { data: Buffer; mime: 'audio/ogg'; durationS?: number } | null;
  /** Issue 28: a template intent (./outbound-template.ts); channels that need none ignore it. */
  template?: OutboundTemplate;
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
  /**
   * Hands a follower's message to the engine (engine/conversation/dispatch.ts): runs the turn,
   * builds the outgoing message, passes it through the plugins' outbound transformers, and sends
   * it through the adapter (`deliver: 'send'`) or gives it back to answer a request
   * (`deliver: 'return'`). A channel adapter's context sends through that adapter; elsewhere the
   * adapter of `inbound.channel` is used, and for a channel no adapter serves (the CLI's `cli`)
   * only `return` works, without transformers.
   * @throws AppError BAD_REQUEST for `send` on a channel no adapter serves; the engine's errors
   *   (AppError NOT_FOUND for an unknown bot, …) and the adapter's `send` errors; nothing is
   *   retried here.
   */
  dispatch(inbound: InboundMessage, options: DispatchOptions): Promise<DispatchReply>;
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
  /**
   * Subscribes to a NOTIFY channel that every process on the database shares (Store.listen): what
   * one node raises reaches the others (e.g. a send handed to the node holding a connection).
   * `options.onResume` is called when the LISTEN connection was lost and is back (issue 24 §1):
   * payloads raised meanwhile were not delivered.
   * @returns a function that unsubscribes.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    options?: { onResume?: () => void },
  ): Promise<() => Promise<void>>;
  /**
   * What this node runs (`CHARLA_ROLE`, issue 26 §2): `all` (default) everything; `web` answers
   * HTTP (webhooks and the turns they carry, the dashboard, the widget) and sends, but holds no
   * background work: an adapter must not take a polling lease or open a linked-device socket
   * there; `worker` runs the background work (jobs, polling, sockets, the inbox's recovery) and
   * serves only the operations routes.
   */
  role: NodeRole;
}

/** See {@link RuntimeContext.role}. */
export type NodeRole = 'all' | 'web' | 'worker';

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
  /**
   * The signed-in owner's bot `chatbotId`, for an owner route: the owner is checked first
   * (`requireOwner`), then that the bot is theirs (read from the database, not the cache).
   * @throws AppError UNAUTHORIZED without a session; AppError NOT_FOUND with the spec's
   *   bot-not-found text (engine/errors.ts BOT_NOT_FOUND) for a bot that does not exist or is
   *   another owner's (one answer for both, so ids cannot be probed).
   */
  owned(
    req: FastifyRequest,
    chatbotId: string,
  ): Promise<{ bot: Chatbot; owner: { id: string; email: string } }>;
  /**
   * Forgets the cached bot (in every process) after a plugin changed its row, e.g. the
   * reservations wizard turning `enable_reservations` on (issue 29).
   */
  changed(chatbotId: string): void;
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
  /**
   * `send`: push channels (Telegram, WhatsApp): the dispatcher calls the adapter's `send` (and
   * its `typing` while the turn runs). `return`: request/response channels (web, test chat, CLI):
   * the transformed message comes back in {@link DispatchReply.message} and nothing is sent.
   */
  deliver: 'send' | 'return';
  /**
   * False: the reply is not passed through the outbound transformers (`return` only; e.g. the
   * bot-id JSON chat route, which carries no voice note). Default true.
   */
  transform?: boolean;
  /** Called with each piece of the reply as the LLM produces it. */
  onToken?: (text: string) => void;
  signal?: AbortSignal;
}

/** What {@link RuntimeContext.dispatch} resolves with. */
export interface DispatchReply {
  /**
   * The engine's answer to the turn; null when the engine answered without a turn (a
   * {@link InboundMessage.command}, a {@link InboundMessage.storeOnly} message).
   */
  result: TurnResult | null;
  /**
   * The message as it was sent (`send`) or is to be sent (`return`), after the transformers;
   * null when nothing is to be sent (a silent turn, a stored-only message).
   */
  message: OutboundMessage | null;
  /** The channel's ids of the messages sent (`send`); null when nothing was sent. */
  receipt: SendReceipt | null;
}

export type { DeliveryTarget, SendOptions } from './send-types.ts';

/**
 * The bot as plugins see it on a turn or a delivery: its identity, language and clock, and its
 * other settings ({@link BotSettings}), where each plugin reads its own.
 */
export interface TurnBot {
  id: string;
  user_id: string;
  business_name: string;
  idioma: string;
  /** IANA time zone of the bot's clock. */
  timezone: string;
  /**
   * The bot's `bots` row as settings (issue 25: the engine names no plugin's flag): a plugin reads
   * the columns it is about, e.g. `bot.settings.enable_reservations`.
   */
  settings: BotSettings;
}

/** Columns of `bots` that plugins never see: the channels' credentials (the adapters read them from the store). */
export type BotSecretColumn = 'telegram_token' | 'meta_token';

/**
 * A bot's settings as plugins read them ({@link TurnBot.settings}): the columns of its `bots` row
 * (spec 000 §3; engine/store/database.ts types them), but the identity {@link TurnBot} names and
 * the channels' credentials. A plugin's flag is a column here (`enable_audio`,
 * `enable_web_search`, `enable_reservations`, `selected_voice_id`, …), not a field of TurnBot.
 */
export type BotSettings = Readonly<
  Omit<Chatbot, 'id' | 'user_id' | 'business_name' | 'idioma' | 'timezone' | BotSecretColumn>
>;

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
