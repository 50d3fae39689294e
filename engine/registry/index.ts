/**
 * The typed registry (DESIGN.md): channel adapters and feature plugins declare what they are and
 * what they contribute; the registry checks them at boot (unique ids, dependencies present) and
 * runs their contributions inside error boundaries, so a failing plugin degrades and logs but
 * never breaks a turn. Registration is explicit: adapters/index.ts and plugins/index.ts are
 * hand-written arrays.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Logger } from '../logger.ts';
import type { Attachment, ContenedorEmpatico } from '../schemas.ts';
import type { Database } from '../store/database.ts';

/** A follower as a channel identifies them. */
export interface FollowerRef {
  /** The follower's id on the channel (Telegram chat id, phone number, web visitor id). */
  id: string;
  username?: string | null;
}

/** A message from a follower, normalised by its adapter (DESIGN.md, the one path). */
export interface InboundMessage {
  chatbotId: string;
  /** Channel id: `telegram`, `whatsapp`, `web`, `test`, `cli`, … */
  channel: string;
  follower: FollowerRef;
  text: string;
  /** Media the follower sent (stored with the conversation; transcription belongs to plugins). */
  attachments?: Array<{ type: string; url?: string; mime?: string }>;
  /** The channel's own message id: a retried message with the same id is answered once. */
  messageId: string;
  /** History the client holds (web clients send it); when absent the store's history is used. */
  history?: Array<{ role: 'user' | 'assistant'; content: string }>;
  /** Ids of the files the client last offered (`archivosMostrados`). */
  offered?: string[];
  /** Ids or names of files the client says were already sent (`archivosEnviados`). */
  sent?: string[];
}

/** The engine's answer to one turn. */
export interface TurnResult {
  reply: string;
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
}

/** A message the engine or an owner sends out through an adapter. */
export interface OutboundMessage {
  text: string;
  attachment?: Attachment | null;
  /** Files offered for the follower to pick (adapters with `choices` render buttons). */
  choices?: Array<{ id: string; label: string }>;
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
}

/** Services an adapter or plugin receives. */
export interface RuntimeContext {
  db: Kysely<Database>;
  log: Logger;
  /** Hands a message to the engine and resolves with its answer. */
  dispatch(inbound: InboundMessage, options?: DispatchOptions): Promise<TurnResult>;
  /** Absolute base URL of this server, when known. */
  publicUrl: string | undefined;
}

/** Options of {@link RuntimeContext.dispatch}. */
export interface DispatchOptions {
  /** Called with each piece of the reply as the LLM produces it. */
  onToken?: (text: string) => void;
  signal?: AbortSignal;
}

/**
 * What a channel adapter receives at start (issue 5): the runtime plus the services a channel
 * needs to hold credentials, read stored files, keep its durable inbox and guard its owner routes.
 */
export interface ChannelContext extends RuntimeContext {
  /** Encrypts and decrypts credentials at rest (AES-256-GCM, engine/secrets.ts). */
  secrets: {
    encrypt(plain: string): string;
    decrypt(sealed: string): string;
    /** A stable per-purpose secret (e.g. a webhook secret token), see engine/secrets.ts. */
    derive(purpose: string, value: string): string;
  };
  /** Absolute path of a stored bot file's key (`chatbot_files.file_url`), or null for an http address. */
  filePath(fileUrl: string): string | null;
  /** The durable inbox: store an update before acknowledging it; handled in order per chat. */
  inbox: ChannelInboxPort;
  /** Resolves the signed-in owner of a request or throws 401 with the spec's text. */
  requireOwner(req: FastifyRequest): Promise<{ id: string; email: string }>;
  /** True when the bot's owner has days left (or a paid plan), so its channels may run (spec 001 §4). */
  mayRun(chatbotId: string): Promise<boolean>;
  /** The built assets folder (`dist/`: dashboard, widget), for channels that serve pages or scripts. */
  distDir: string;
  /** Channel settings from the environment (e.g. `TELEGRAM_API_ROOT`); each adapter validates its own. */
  env: Readonly<Record<string, string | undefined>>;
  /** Asks the supervisor to reconcile one bot now (after a connect, a disconnect, a renewal). */
  reconcile(chatbotId: string): Promise<void>;
  /** Passes an outgoing message through the plugins' outbound transformers. */
  transformOutbound(message: OutboundMessage, turn: TurnContext): Promise<OutboundMessage>;
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
  /** Sends a message to a follower of a bot (owner replies, broadcasts, reminders). */
  send(chatbotId: string, chatId: string, message: OutboundMessage): Promise<void>;
  /** Disconnects every bot and releases resources. */
  stop(): Promise<void>;
  /**
   * Routes: webhooks are mounted under `/channels/<id>`; `apiRoutes` at the root for the spec's
   * `/api/...` paths (e.g. `/api/verify-telegram`).
   */
  routes?: FastifyPluginAsync;
  apiRoutes?: FastifyPluginAsync;
}

/** The state of a turn that plugin middleware sees. */
export interface TurnContext {
  inbound: InboundMessage;
  bot: { id: string; user_id: string; business_name: string; idioma: string };
}

/** Middleware runs before the LLM; returning `{ reply }` answers the turn without the LLM. */
export type TurnMiddleware = (
  turn: TurnContext,
) => Promise<{ reply: string } | undefined> | { reply: string } | undefined;

/** An LLM function tool (function calling); its input is validated with zod. */
export interface PluginTool<Input = unknown> {
  name: string;
  description: string;
  input: z.ZodType<Input>;
  run(input: Input, turn: TurnContext): Promise<string>;
}

/** Wraps the sending of a message (voice replies, effects). */
export type OutboundTransformer = (message: OutboundMessage, turn: TurnContext) => Promise<OutboundMessage>;

/** A scheduled job (node-cron expression). */
export interface CronJob {
  name: string;
  schedule: string;
  run(): Promise<void>;
}

/** The closed list of things a plugin can contribute (DESIGN.md). */
export interface PluginContributions {
  tools?: PluginTool[];
  /** Text added to every system prompt; may depend on the bot. */
  promptFragments?: Array<(bot: TurnContext['bot']) => string | Promise<string>>;
  middleware?: TurnMiddleware[];
  outbound?: OutboundTransformer[];
  /** Fastify plugin mounted under `/plugins/<id>` (or the spec's `/api/...` paths with `prefix: ''`). */
  routes?: { plugin: FastifyPluginAsync; prefix?: string };
  cron?: CronJob[];
  dispose?: () => Promise<void>;
}

/** A feature plugin (DESIGN.md). */
export interface FeaturePlugin<Options = unknown> {
  id: string;
  optionsSchema: z.ZodType<Options>;
  dependencies?: string[];
  setup(ctx: RuntimeContext & { options: Options }): Promise<PluginContributions> | PluginContributions;
}

/** Declares a channel adapter; returns its argument (for type inference). */
export function defineChannel<Config>(adapter: ChannelAdapter<Config>): ChannelAdapter<Config> {
  return adapter;
}

/** Declares a feature plugin; returns its argument (for type inference). */
export function definePlugin<Options>(plugin: FeaturePlugin<Options>): FeaturePlugin<Options> {
  return plugin;
}

/** Thrown at boot when the registered adapters or plugins are inconsistent. */
export class RegistryError extends Error {
  override name = 'RegistryError';
}

/** The booted set of adapters and plugin contributions. */
export class Registry {
  readonly adapters = new Map<string, ChannelAdapter<never>>();
  readonly plugins = new Map<string, FeaturePlugin<never>>();
  private readonly contributions = new Map<string, PluginContributions>();

  /**
   * Checks ids and dependencies.
   * @throws RegistryError on a duplicate id or a missing dependency.
   */
  constructor(
    adapters: ReadonlyArray<ChannelAdapter<never>>,
    plugins: ReadonlyArray<FeaturePlugin<never>>,
    private readonly log: Logger,
  ) {
    for (const a of adapters) {
      if (this.adapters.has(a.id)) throw new RegistryError(`duplicate channel adapter id "${a.id}"`);
      this.adapters.set(a.id, a);
    }
    for (const p of plugins) {
      if (this.plugins.has(p.id)) throw new RegistryError(`duplicate plugin id "${p.id}"`);
      this.plugins.set(p.id, p);
    }
    for (const p of plugins) {
      for (const dep of p.dependencies ?? []) {
        if (!this.plugins.has(dep))
          throw new RegistryError(`plugin "${p.id}" needs plugin "${dep}", which is not registered`);
      }
    }
  }

  /**
   * Runs every plugin's `setup` in dependency order with its validated options.
   * @throws RegistryError when a plugin's options do not match its schema.
   */
  async setup(ctx: RuntimeContext, options: Record<string, unknown> = {}): Promise<void> {
    const done = new Set<string>();
    const visit = async (p: FeaturePlugin<never>) => {
      if (done.has(p.id)) return;
      done.add(p.id);
      for (const dep of p.dependencies ?? []) await visit(this.plugins.get(dep)!);
      const parsed = p.optionsSchema.safeParse(options[p.id] ?? {});
      if (!parsed.success) throw new RegistryError(`plugin "${p.id}" options: ${parsed.error.message}`);
      const contributions = await p.setup({ ...ctx, options: parsed.data as never });
      this.contributions.set(p.id, contributions);
    };
    for (const p of this.plugins.values()) await visit(p);
  }

  /** Every contribution of one kind, with the id of the plugin that made it. */
  private all<K extends keyof PluginContributions>(
    kind: K,
  ): Array<[string, NonNullable<PluginContributions[K]>]> {
    const out: Array<[string, NonNullable<PluginContributions[K]>]> = [];
    for (const [id, c] of this.contributions) if (c[kind]) out.push([id, c[kind]!]);
    return out;
  }

  /** Runs plugin middleware in order; the first `{ reply }` wins. A throwing middleware is logged and skipped. */
  async runMiddleware(turn: TurnContext): Promise<{ reply: string; plugin: string } | undefined> {
    for (const [id, list] of this.all('middleware')) {
      for (const mw of list) {
        try {
          const out = await mw(turn);
          if (out) return { reply: out.reply, plugin: id };
        } catch (err) {
          this.log.error({ err, plugin: id }, 'plugin middleware failed; turn continues without it');
        }
      }
    }
    return undefined;
  }

  /** Collects the prompt fragments for a bot; a failing fragment is logged and left out. */
  async promptFragments(bot: TurnContext['bot']): Promise<string[]> {
    const out: string[] = [];
    for (const [id, list] of this.all('promptFragments')) {
      for (const fragment of list) {
        try {
          out.push(await fragment(bot));
        } catch (err) {
          this.log.error({ err, plugin: id }, 'plugin prompt fragment failed; left out');
        }
      }
    }
    return out;
  }

  /** Passes an outgoing message through the plugins' transformers; a failing one is skipped. */
  async transformOutbound(message: OutboundMessage, turn: TurnContext): Promise<OutboundMessage> {
    let current = message;
    for (const [id, list] of this.all('outbound')) {
      for (const transform of list) {
        try {
          current = await transform(current, turn);
        } catch (err) {
          this.log.error(
            { err, plugin: id },
            'plugin outbound transformer failed; message sent untransformed',
          );
        }
      }
    }
    return current;
  }

  /** Plugin routes to mount, with their prefix. */
  routes(): Array<{ id: string; plugin: FastifyPluginAsync; prefix: string }> {
    return this.all('routes').map(([id, r]) => ({
      id,
      plugin: r.plugin,
      prefix: r.prefix ?? `/plugins/${id}`,
    }));
  }

  /** Disposes every plugin; errors are logged. */
  async dispose(): Promise<void> {
    for (const [id, dispose] of this.all('dispose')) {
      try {
        await dispose();
      } catch (err) {
        this.log.error({ err, plugin: id }, 'plugin dispose failed');
      }
    }
  }
}
