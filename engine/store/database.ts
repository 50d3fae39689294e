/**
 * Kysely table types: the one description of Charla's tables in TypeScript. Column names are the
 * spec's (000 §3, 001 §3); the migrations in migrations/ create exactly these.
 */
import type { ColumnType, Generated, GeneratedAlways, Insertable, Selectable, Updateable } from 'kysely';

/** A timestamptz column with a default: read as Date, optional on insert. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | T, string | T>;

/** An owner account (a business owner who builds bots). The accounts issue moves sign-in onto its auth library. */
export interface OwnersTable {
  id: Generated<string>;
  email: string;
  name: Generated<string>;
  email_verified: Generated<boolean>;
  image: string | null;
  /** Issue 26 §6: may use /admin and `/api/operator/*` (migration 202611260900_owner_operator). */
  operator: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** better-auth's session model (engine/auth maps its fields to these columns). */
export interface AuthSessionsTable {
  id: string;
  user_id: string;
  token: string;
  expires_at: Date | string;
  ip_address: string | null;
  user_agent: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** better-auth's account model: one row per sign-in method (credential password hash, Google). */
export interface AuthAccountsTable {
  id: string;
  user_id: string;
  account_id: string;
  provider_id: string;
  access_token: string | null;
  refresh_token: string | null;
  id_token: string | null;
  access_token_expires_at: Date | string | null;
  refresh_token_expires_at: Date | string | null;
  scope: string | null;
  password: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** better-auth's verification model (e-mail confirmation and reset tokens). */
export interface AuthVerificationsTable {
  id: string;
  identifier: string;
  value: string;
  expires_at: Date | string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A rate-limit counter shared by every process (engine/rate-limits.ts): hits in the fixed window ending at `reset_at`. */
/** Issue 26 §2: a lease on work one node at a time does (migrations/202611260600_leases.ts). */
export interface LeasesTable {
  /** What the lease is for, e.g. `telegram-poll:<chatbot id>`. */
  name: string;
  /** The process holding it (a random id per process and use). */
  holder: string;
  expires_at: Timestamp;
}

/** Issue 26 §2: a Charla process on this database (migrations/202611260700_nodes.ts, engine/nodes.ts). */
export interface NodesTable {
  id: string;
  host: string;
  pid: number;
  /** `all`, `web` or `worker` (CHARLA_ROLE). */
  role: string;
  /** HMAC of a fixed text under the instance secret: equal on nodes that share the secret. */
  secret_fingerprint: string;
  /** True when the secret came from CHARLA_SECRET (not a data dir's own file). */
  secret_shared: boolean;
  started_at: Timestamp;
  seen_at: Timestamp;
}

/** Issue 26 §2: a send handed to the node holding a bot's connection (engine/channels/handoff.ts). */
export interface ChannelHandoffsTable {
  id: Generated<string>;
  channel: string;
  chatbot_id: string;
  chat_id: string;
  /** The OutboundMessage, its voice note's bytes as base64. */
  message: Json<unknown>;
  status: Generated<'pending' | 'sending' | 'sent' | 'failed'>;
  receipt: Json<unknown> | null;
  error: string | null;
  created_at: Generated<Timestamp>;
  done_at: Timestamp | null;
}

export interface RateLimitsTable {
  key: string;
  hits: number;
  reset_at: Date | string;
}

/** Spec 001 §3: plan and expiry that give the days remaining. */
export interface UserProfilesTable {
  user_id: string;
  full_name: string | null;
  plan: Generated<string>;
  expires_at: Date | string | null;
  stripe_subscription_id: string | null;
  created_at: Timestamp;
}

/** Spec 000 §3 and 001 §3: one bot of an owner. The newest bot of a user is the one loaded. */
export interface ChatbotsTable {
  id: Generated<string>;
  user_id: string;
  business_name: string;
  business_description: string;
  /**
   * Issue 10 §7: what the public IALanding says about the business; empty means the first
   * sentences of `business_description` without instructions (engine/ranking `publicSummary`).
   */
  public_description: Generated<string>;
  chatbot_style: Generated<string>;
  expectations: Generated<string>;
  system_prompt: string | null;
  files_list: Json<string[]> | null;
  enable_audio: Generated<boolean>;
  enable_web_search: Generated<boolean>;
  enable_reservations: Generated<boolean>;
  /** Encrypted at rest (engine/secrets.ts). */
  telegram_token: string | null;
  telegram_username: string | null;
  /** The Telegram bot's numeric id (`getMe`), stored at connect time (issue 5). */
  telegram_bot_id: string | null;
  phone_number: string | null;
  meta_verified: Generated<boolean>;
  meta_business_account_id: string | null;
  /** Encrypted at rest (engine/secrets.ts). */
  meta_token: string | null;
  whatsapp_number: string | null;
  is_public: Generated<boolean>;
  /** Issue 29: when the owner published the bot in Facebots; null while it is private (not listed). */
  published_at: Date | string | null;
  category: Generated<string>;
  idioma: Generated<string>;
  selected_voice_id: string | null;
  responses_count: Generated<number>;
  likes_count: Generated<number>;
  charla_key: string | null;
  web_enabled: Generated<boolean>;
  /** Origin of the last website the widget loaded on, and when (issue 10); null until it has. */
  widget_origin: string | null;
  widget_seen_at: Date | string | null;
  /** IANA time zone of the bot's clock (`reloj`); not in the spec, defaults to Europe/Madrid. */
  timezone: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Spec 000 §3: a file the bot sends when a follower's message matches its keywords. */
export interface ChatbotFilesTable {
  id: Generated<string>;
  user_id: string;
  chatbot_id: string;
  file_name: string;
  file_type: 'image' | 'pdf' | 'audio' | 'video' | 'document';
  file_purpose: string | null;
  /** Storage key `{userId}/{timestamp}_{name}` or an http(s) address. */
  file_url: string;
  /** Comma-separated, normalised keywords (engine/matching normalizeKeywords). */
  keyword: Generated<string>;
  context: Generated<string>;
  /** Content type sniffed from the bytes at upload. */
  mime_type: string;
  /** Size in bytes, for the 100 MB per-bot limit. */
  size_bytes: ColumnType<number, number, number>;
  video_duration: number | null;
  video_width: number | null;
  video_height: number | null;
  video_codec: string | null;
  created_at: Timestamp;
}

/** One follower of one bot on one channel. */
export interface FollowersTable {
  id: Generated<string>;
  chatbot_id: string;
  channel: string;
  external_id: string;
  username: string | null;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
}

/** What the engine stored with a bot message so a retried turn gets the same answer. */
export interface StoredTurnMeta {
  attachment: import('../schemas.ts').Attachment | null;
  archivosEnviados: string[];
  archivos: import('../schemas.ts').ArchivosBlock;
  offline: boolean;
  failed: boolean;
  /** Tool calls made in this turn (plugins' function tools), kept for the owner and for replays. */
  tools?: ToolCallRecord[];
  /**
   * Set on a broadcast's copy (issue 27 §5): the business's announcement to every follower, not a
   * takeover; a channel shows it as the business's and the bot is not paused by it.
   */
  broadcast?: true;
}

/** What the engine stores with a follower's message (the `user` row). */
export interface InboundMeta {
  /** Media the follower sent with this message, by the channel's own file id. */
  received?: Array<{ kind: string; channelFileId: string | null; mime: string | null }>;
  /** The text as the follower sent it, when a plugin rewrote it (e.g. `[nota de voz]` before its transcript). */
  originalText?: string;
  /** Set when a plugin kept the bot quiet for this message (an owner took over): no reply was stored. */
  silent?: { plugin: string; reason: string };
}

/**
 * Spec 001 §3: one message of a conversation. A turn writes two rows: the follower's
 * (sender `user`, with the channel's `message_id`) and the bot's (sender `bot`, `reply_to` the
 * first). `ai_response` is true when the LLM (or the offline responder) wrote the bot's text and
 * false for an owner's hand-written message; `user_id` is the follower's id on the channel.
 */
export interface ConversationMessagesTable {
  id: Generated<string>;
  chatbot_id: string;
  channel: string;
  user_id: string;
  /** `user` (the follower), `bot` (the engine or a plugin), `owner` (a hand-written message). */
  sender: 'user' | 'bot' | 'owner';
  username: string | null;
  text: string;
  ai_response: Generated<boolean>;
  message_id: string | null;
  reply_to: string | null;
  /** {@link StoredTurnMeta} on `bot` rows, {@link InboundMeta} on `user` rows. */
  meta: Json<StoredTurnMeta | InboundMeta> | null;
  created_at: Timestamp;
}

/** Spec 001 §3: the public AI landing page of a bot. */
/** Issue 10 §8: a slug an IALanding had before (old rule, or renamed business); its page redirects. */
export interface IalandingSlugRedirectsTable {
  old_slug: string;
  ialanding_id: string;
  created_at: Timestamp;
}

export interface IalandingsTable {
  id: Generated<string>;
  user_id: string;
  chatbot_id: string;
  business_name: string;
  charla_key: string | null;
  slug: string;
  is_active: Generated<boolean>;
  created_at: Timestamp;
}

/**
 * Issue 5: an update a channel delivered, stored before it is acknowledged and handled from here
 * (the durable inbox, engine/channels/inbox.ts). `update_key` is the channel's own id (Telegram:
 * `<bot id>:<update_id>`), unique per bot, so a redelivery is one row.
 */
export interface ChannelUpdatesTable {
  id: Generated<string>;
  channel: string;
  chatbot_id: string;
  update_key: string;
  /** The chat (follower) the update belongs to; updates of one chat are handled in order. */
  chat_id: string;
  payload: Json<unknown>;
  status: Generated<'pending' | 'done' | 'failed'>;
  attempts: Generated<number>;
  last_error: string | null;
  received_at: Timestamp;
  handled_at: Date | string | null;
  /** When a process claimed the row to handle it (renewed while it works); null when free. */
  claimed_at: Date | string | null;
}

/** The reading state of one file's text (issue 30 §1; migrations/202611291200_file_passages.ts). */
export type FileTextState =
  | 'pending'
  | 'reading'
  | 'ready'
  | 'no_text'
  | 'unsupported'
  | 'failed'
  | 'too_large';

/** One row per file: how far reading its text went. */
export interface ChatbotFileTextsTable {
  file_id: string;
  chatbot_id: string;
  state: Generated<FileTextState>;
  pages_done: Generated<number>;
  /** Pages of the file (null until known). */
  pages_total: number | null;
  /** Characters of text kept (all pages). */
  chars: Generated<number>;
  /** Why reading failed, as a code the dashboard translates (never a message). */
  error_code: string | null;
  /** When the owner last corrected the text; null when it is as read. */
  edited_at: Date | string | null;
  updated_at: Generated<Timestamp>;
}

/** The text of one page of a file (1-based; a transcript or a text file is page 1). */
export interface ChatbotFilePagesTable {
  file_id: string;
  page: number;
  text: string;
}

/** One searchable passage of a file (by page and heading, with overlap). */
export interface ChatbotFilePassagesTable {
  id: Generated<string>;
  chatbot_id: string;
  file_id: string;
  page: number | null;
  /** Order within the file. */
  position: number;
  heading: Generated<string>;
  text: string;
  /** `length(text)`, generated (BM25's length normalisation reads it instead of the text). */
  chars: GeneratedAlways<number>;
  /** The PostgreSQL text search configuration the vector was built with (`spanish`, `simple`, …). */
  lang_config: string;
  /** `to_tsvector(lang_config, heading || text)`; written in SQL, never read as a value. */
  tsv: string;
}

/** `chatbot_file_passage_embeddings` (issue 30 §2): a passage's unit-length embedding, `real[]`. */
export interface ChatbotFilePassageEmbeddingsTable {
  passage_id: string;
  chatbot_id: string;
  model: string;
  embedding: number[];
}

/** All tables, as Kysely sees them. */
export interface Database {
  owners: OwnersTable;
  auth_sessions: AuthSessionsTable;
  auth_accounts: AuthAccountsTable;
  auth_verifications: AuthVerificationsTable;
  rate_limits: RateLimitsTable;
  leases: LeasesTable;
  nodes: NodesTable;
  channel_handoffs: ChannelHandoffsTable;
  user_profiles: UserProfilesTable;
  chatbots: ChatbotsTable;
  chatbot_files: ChatbotFilesTable;
  followers: FollowersTable;
  conversation_messages: ConversationMessagesTable;
  ialandings: IalandingsTable;
  ialanding_slug_redirects: IalandingSlugRedirectsTable;
  channel_updates: ChannelUpdatesTable;
  chatbot_file_texts: ChatbotFileTextsTable;
  chatbot_file_pages: ChatbotFilePagesTable;
  chatbot_file_passages: ChatbotFilePassagesTable;
  chatbot_file_passage_embeddings: ChatbotFilePassageEmbeddingsTable;
}

export type Owner = Selectable<OwnersTable>;
export type Chatbot = Selectable<ChatbotsTable>;
export type NewChatbot = Insertable<ChatbotsTable>;
export type ChatbotUpdate = Updateable<ChatbotsTable>;
export type ChatbotFile = Selectable<ChatbotFilesTable>;
export type NewChatbotFile = Insertable<ChatbotFilesTable>;
export type ConversationMessage = Selectable<ConversationMessagesTable>;
export type Follower = Selectable<FollowersTable>;
export type Ialanding = Selectable<IalandingsTable>;

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
