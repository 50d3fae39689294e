/**
 * The conversation engine: `handleTurn` is the one path every follower message takes, whatever
 * its channel (DESIGN.md). A turn is five named stages (engine/conversation/turn/), each with its
 * own unit test (test/turn-stages.test.ts):
 * 1. load: idempotency, the bot and its files (cached), history and what was sent or offered;
 * 2. middleware: the plugins may answer, silence or rewrite the message;
 * 3. match: the files the message asks for (SEND one, LIST several);
 * 4. respond: the empathy container, then the LLM's answer (or the offline responder's);
 * 5. persist: both messages stored in one statement, once per message id.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { buildEmpathyContainer } from '../empathy/index.ts';
import { AppError } from '../errors.ts';
import type { Embedder } from '../knowledge/embeddings.ts';
import type { Logger } from '../logger.ts';
import type { InboundMessage, Registry, TurnResult } from '../registry/index.ts';
import { MAX_MESSAGE_CHARS } from '../schemas.ts';
import { TurnSideEffects } from '../store/batcher.ts';
import type { Database } from '../store/database.ts';
import type { StoredTurn } from '../store/queries/messages.ts';
import { BotCache } from './cache.ts';
import type { LlmClient } from './llm.ts';
import { type BotParts, turnBotOf } from './turn/bot-parts.ts';
import { ANONYMOUS_FOLLOWER, HISTORY_LIMIT, loadTurn } from './turn/load.ts';
import { matchStage } from './turn/match.ts';
import { buildTurnContext, runMiddlewareStage } from './turn/middleware.ts';
import { EMPTY_META, persist } from './turn/persist.ts';
import { respond } from './turn/respond.ts';

export { ANONYMOUS_FOLLOWER, HISTORY_LIMIT, turnBotOf };

/** What the engine needs. */
export interface EngineDeps {
  db: Kysely<Database>;
  registry: Registry;
  /** The LLM, or null for the offline responder. */
  llm: LlmClient | null;
  log: Logger;
  /** Base URL for absolute file links (e.g. `http://127.0.0.1:8787`); relative links when undefined. */
  baseUrl: () => string | undefined;
  /** The clock (tests pin it). */
  now?: () => Date;
  cache?: BotCache;
  /** The embeddings server, when configured (issue 30 §2: hybrid retrieval of file passages). */
  embedder?: Embedder | null;
  /**
   * Told of each turn this process ran, when it ends (the metrics, engine/metrics.ts): its channel,
   * how it ended and how long it took, ms. A turn answered from a running duplicate is not counted.
   */
  onTurn?: (turn: { channel: string; outcome: TurnOutcome; ms: number }) => void;
}

/** How a turn ended, for {@link EngineDeps.onTurn}. */
export type TurnOutcome = 'answered' | 'offline' | 'failed' | 'silent' | 'duplicate' | 'error';

/** The outcome of a finished turn. */
function outcomeOf(r: TurnResult): TurnOutcome {
  if (r.duplicate) return 'duplicate';
  if (r.silent) return 'silent';
  if (r.failed) return 'failed';
  return r.offline ? 'offline' : 'answered';
}

/** Per-turn options. */
export interface TurnOptions {
  /** Called with each piece of the reply as it is produced (SSE, typing previews). */
  onToken?: (text: string) => void;
  signal?: AbortSignal;
}

/**
 * Answers followers' messages ({@link ConversationEngine.handleTurn}), with the bot cache it reads
 * bots from and the batched side effects of stored turns (response counts, live-view events).
 */
export class ConversationEngine {
  readonly cache: BotCache;
  private readonly inflight = new Map<string, Promise<TurnResult>>();
  private readonly now: () => Date;
  readonly effects: TurnSideEffects;

  constructor(private readonly deps: EngineDeps) {
    this.cache = deps.cache ?? new BotCache(deps.db);
    this.now = deps.now ?? (() => new Date());
    this.effects = new TurnSideEffects(deps.db, deps.log);
  }

  /** Writes the batched response counts and realtime events (engine/store/batcher.ts). */
  flush(): Promise<void> {
    return this.effects.flush();
  }

  /** Flushes and stops the batching timer; call before closing the store. */
  close(): Promise<void> {
    return this.effects.close();
  }

  /** True when replies come from the offline responder. */
  get offline(): boolean {
    return this.deps.llm === null;
  }

  /**
   * Answers one follower message.
   * @throws AppError NOT_FOUND (unknown bot, spec text), BAD_REQUEST (empty or too long message;
   *   a message with media may have no text). An LLM failure is not thrown: the follower gets the
   *   spec's failure text and both messages are stored.
   */
  async handleTurn(inbound: InboundMessage, options: TurnOptions = {}): Promise<TurnResult> {
    const text = inbound.text.trim();
    if (!text && !inbound.attachments?.length) throw new AppError('BAD_REQUEST', 'El mensaje está vacío.');
    if (text.length > MAX_MESSAGE_CHARS)
      throw new AppError('BAD_REQUEST', `El mensaje supera los ${MAX_MESSAGE_CHARS} caracteres.`);
    // A message without a channel id gets a fresh one: it cannot have been answered before. Nor can
    // an anonymous caller's: every caller without an id is the same "follower", so its key would
    // let one replay another's turn (issue 24 §8).
    const known = Boolean(inbound.messageId) && inbound.follower.id !== ANONYMOUS_FOLLOWER;
    const messageId = known ? inbound.messageId : randomUUID();
    // Per follower (issue 24 §8): another follower's same key is another message.
    const key = `${inbound.chatbotId}\u0000${inbound.channel}\u0000${inbound.follower.id}\u0000${messageId}`;
    const running = this.inflight.get(key);
    if (running) return running.then((r) => this.replay(r, options));
    const started = performance.now();
    const onTurn = this.deps.onTurn;
    const turn = this.runTurn({ ...inbound, text, messageId }, known, options).finally(() =>
      this.inflight.delete(key),
    );
    if (onTurn)
      turn.then(
        (r) => onTurn({ channel: inbound.channel, outcome: outcomeOf(r), ms: performance.now() - started }),
        () => onTurn({ channel: inbound.channel, outcome: 'error', ms: performance.now() - started }),
      );
    this.inflight.set(key, turn);
    return turn;
  }

  /** A duplicate waiting on an in-flight turn gets the same answer, marked duplicate. */
  private replay(result: TurnResult, options: TurnOptions): TurnResult {
    options.onToken?.(result.reply);
    return { ...result, duplicate: true };
  }

  /** The five stages of one turn (see the module comment). */
  private async runTurn(inbound: InboundMessage, known: boolean, options: TurnOptions): Promise<TurnResult> {
    const { db, registry } = this.deps;
    const load = await loadTurn({ db, cache: this.cache }, inbound, known);
    const { loaded, parts, history } = load;
    if (load.stored) {
      const result = this.fromStored(load.stored, inbound, parts, loaded.bot);
      options.onToken?.(result.reply);
      return result;
    }

    const turn = buildTurnContext(inbound, parts, history, {
      adapter: registry.adapters.get(inbound.channel),
      offline: this.deps.llm === null,
      now: this.now(),
    });
    const middleware = await runMiddlewareStage(registry, turn, parts.lang);
    inbound = middleware.inbound;
    const stored = {
      chatbotId: loaded.bot.id,
      channel: inbound.channel,
      userId: inbound.follower.id,
      username: inbound.follower.username ?? null,
      messageId: inbound.messageId,
      userText: middleware.userText,
      userMeta: middleware.userMeta,
    };
    if (middleware.stop?.kind === 'silent') {
      const saved = await persist(
        { db, effects: this.effects },
        { ...stored, botText: null, meta: EMPTY_META },
      );
      return this.fromStored(saved.stored, inbound, parts, loaded.bot, saved.duplicate);
    }

    const match = matchStage({
      text: inbound.text,
      files: loaded.files,
      offered: load.offered,
      sentBefore: load.sentBefore,
      skip: middleware.stop?.kind === 'reply' || !inbound.text,
    });
    const response = await respond(this.deps, {
      turn,
      loaded,
      parts,
      history,
      middleware,
      match,
      onToken: options.onToken,
      signal: options.signal,
    });
    const saved = await persist(
      { db, effects: this.effects },
      {
        ...stored,
        botText: response.reply,
        meta: {
          attachment: response.attachment,
          archivosEnviados: match.sentIds,
          // The match's block, or the offer of a file the reply cites (issue 30 §3).
          archivos: response.container.archivos,
          offline: response.offline,
          failed: response.failed,
          ...(response.tools.length > 0 ? { tools: response.tools } : {}),
        },
      },
    );
    if (saved.duplicate) return this.fromStored(saved.stored, inbound, parts, loaded.bot);
    return {
      reply: response.reply,
      heard: middleware.userText,
      attachment: response.attachment,
      archivosEnviados: match.sentIds,
      contenedorEmpatico: response.container,
      offline: response.offline,
      failed: response.failed,
      duplicate: false,
      silent: false,
      tools: response.tools,
      ...(response.passages.length > 0 ? { passages: response.passages } : {}),
      ...(response.choices ? { choices: response.choices } : {}),
    };
  }

  /** Rebuilds the answer of a stored turn (a retried message id). */
  private fromStored(
    stored: StoredTurn,
    inbound: InboundMessage,
    parts: BotParts,
    bot: { business_name: string; timezone: string },
    duplicate = true,
  ): TurnResult {
    const meta = stored.meta;
    const archivos = meta?.archivos ?? { action: 'NONE' as const, lista: [] };
    const container = buildEmpathyContainer({
      message: stored.userText,
      history: inbound.history ?? [],
      lang: parts.lang,
      files: parts.fileRefs,
      unconfigured: parts.unconfigured,
      sentIds: meta?.archivosEnviados ?? [],
      mentioned: archivos.action === 'SEND' ? (archivos.lista[0] ?? null) : null,
      alreadySent: [],
      archivos,
      businessName: bot.business_name,
      now: this.now(),
      timezone: bot.timezone,
    });
    return {
      reply: stored.botText,
      heard: stored.userText,
      attachment: meta?.attachment ?? null,
      archivosEnviados: meta?.archivosEnviados ?? [],
      contenedorEmpatico: container,
      offline: meta?.offline ?? false,
      failed: meta?.failed ?? false,
      duplicate,
      silent: Boolean(stored.silent),
      tools: meta?.tools ?? [],
    };
  }
}
