/**
 * The conversation engine: `handleTurn` is the one path every follower message takes, whatever
 * its channel (DESIGN.md): idempotency → bot and history → plugin middleware → keyword matching →
 * empathy container → prompt → LLM (or the offline responder) → both messages stored in one
 * transaction.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { buildEmpathyContainer } from '../empathy/index.ts';
import { AppError, botNotFound } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { matchFiles } from '../matching/index.ts';
import {
  type InboundMessage,
  type Registry,
  type ToolCallRecord,
  type TurnBot,
  type TurnContext,
  type TurnResult,
  toolDefinitions,
} from '../registry/index.ts';
import {
  type ArchivosBlock,
  type Attachment,
  type FileRef,
  type HistoryItem,
  languageCode,
  MAX_MESSAGE_CHARS,
} from '../schemas.ts';
import { publicFileUrl } from '../storage/index.ts';
import { TurnSideEffects } from '../store/batcher.ts';
import type { Chatbot, ChatbotFile, Database, InboundMeta, StoredTurnMeta } from '../store/database.ts';
import { loadConversation, persistTurn, type StoredTurn } from '../store/queries/messages.ts';
import { BotCache } from './cache.ts';
import type { LlmClient } from './llm.ts';
import { offlineReply } from './offline.ts';
import { buildMessages, buildSystemPrompt } from './prompt.ts';
import {
  FAILURE_TEXTS,
  fileSentence,
  listOffer,
  MEDIA_NAMES,
  MEDIA_RECEIVED,
  receivedKind,
} from './texts.ts';

/** Messages of stored history sent to the LLM. */
export const HISTORY_LIMIT = 12;

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
}

/** Per-turn options. */
export interface TurnOptions {
  /** Called with each piece of the reply as it is produced (SSE, typing previews). */
  onToken?: (text: string) => void;
  signal?: AbortSignal;
}

/** A file as the container and the chat clients see it. */
function fileRef(f: ChatbotFile): FileRef {
  return { id: f.id, file_name: f.file_name, file_type: f.file_type, keyword: f.keyword };
}

/** Anonymous web visitors share one follower id; their history is the client's, never the store's. */
export const ANONYMOUS_FOLLOWER = 'anonymous';

/** The bot as plugins see it (registry TurnBot): identity, language, clock and feature flags. */
export function turnBotOf(bot: Chatbot): TurnBot {
  return {
    id: bot.id,
    user_id: bot.user_id,
    business_name: bot.business_name,
    idioma: bot.idioma,
    timezone: bot.timezone,
    enable_audio: bot.enable_audio,
    enable_web_search: bot.enable_web_search,
    enable_reservations: bot.enable_reservations,
    selected_voice_id: bot.selected_voice_id,
  };
}

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
    const turn = this.runTurn({ ...inbound, text, messageId }, known, options).finally(() =>
      this.inflight.delete(key),
    );
    this.inflight.set(key, turn);
    return turn;
  }

  /** A duplicate waiting on an in-flight turn gets the same answer, marked duplicate. */
  private replay(result: TurnResult, options: TurnOptions): TurnResult {
    options.onToken?.(result.reply);
    return { ...result, duplicate: true };
  }

  private async runTurn(inbound: InboundMessage, known: boolean, options: TurnOptions): Promise<TurnResult> {
    const loaded = await this.cache.get(inbound.chatbotId);
    if (!loaded) throw botNotFound();
    const { bot, files } = loaded;
    const lang = languageCode(bot.idioma);

    const identified = inbound.follower.id !== ANONYMOUS_FOLLOWER;
    const conversation = await loadConversation(this.deps.db, {
      chatbotId: bot.id,
      channel: inbound.channel,
      userId: inbound.follower.id,
      withHistory: identified,
      messageId: known ? inbound.messageId : null,
      limit: HISTORY_LIMIT,
    });
    if (conversation.stored) {
      const result = this.fromStored(conversation.stored, inbound, files, lang, bot);
      options.onToken?.(result.reply);
      return result;
    }
    const history: HistoryItem[] =
      inbound.history ??
      conversation.history.map((r) => ({
        role: r.sender === 'user' ? ('user' as const) : ('assistant' as const),
        content: r.text,
      }));
    const lastMeta = conversation.lastMeta;
    const sentBefore = [...new Set([...(lastMeta?.archivosEnviados ?? []), ...(inbound.sent ?? [])])]
      .map((s) => files.find((f) => f.id === s || f.file_name === s)?.id)
      .filter((id): id is string => Boolean(id));
    const offered =
      inbound.offered ??
      (lastMeta?.archivos.action === 'LIST' ? lastMeta.archivos.lista.map((f) => f.id) : []);

    const turn = this.turnContext(inbound, bot, files, history);
    // Middleware may answer, silence (an owner took over) or rewrite the text (a transcript).
    const decision = await this.deps.registry.runMiddleware(turn);
    const originalText = inbound.text;
    inbound = { ...inbound, text: decision.text.trim() };
    turn.inbound = inbound;
    const received = (inbound.attachments ?? []).map((a) => ({
      kind: receivedKind(a.type),
      channelFileId: a.channelFileId ?? null,
      mime: a.mime ?? null,
    }));
    const mediaName = received[0] ? MEDIA_NAMES[lang][received[0].kind] : null;
    const userText = inbound.text || (mediaName ? `[${mediaName}]` : '');
    const userMeta: InboundMeta | null =
      received.length > 0 || originalText !== userText || decision.stop?.kind === 'silent'
        ? {
            ...(received.length > 0 ? { received } : {}),
            ...(originalText && originalText !== userText ? { originalText } : {}),
            ...(decision.stop?.kind === 'silent'
              ? { silent: { plugin: decision.stop.plugin, reason: decision.stop.reason } }
              : {}),
          }
        : null;

    if (decision.stop?.kind === 'silent') {
      const { turn: stored, duplicate } = await persistTurn(this.deps.db, {
        chatbotId: bot.id,
        channel: inbound.channel,
        userId: inbound.follower.id,
        username: inbound.follower.username ?? null,
        messageId: inbound.messageId,
        userText,
        userMeta,
        botText: null,
        meta: EMPTY_META,
      });
      if (duplicate) return this.fromStored(stored, inbound, files, lang, bot);
      this.effects.record({
        chatbotId: bot.id,
        channel: inbound.channel,
        userId: inbound.follower.id,
        replies: 0,
      });
      return this.fromStored(stored, inbound, files, lang, bot, false);
    }
    const intercepted = decision.stop?.kind === 'reply' ? decision.stop : undefined;
    // Media nobody turned into words: kept for the owner, and the follower is asked to write.
    const wordless = !intercepted && !inbound.text;

    const match =
      intercepted || wordless ? null : matchFiles(inbound.text, files, { offered, sent: sentBefore });
    const sending = match?.action === 'SEND' ? match.files[0]! : null;
    const archivos: ArchivosBlock =
      match?.action === 'LIST'
        ? { action: 'LIST', lista: match.files.map(fileRef) }
        : { action: sending ? 'SEND' : 'NONE', lista: sending ? [fileRef(sending)] : [] };
    const sentIds = sending && !sentBefore.includes(sending.id) ? [...sentBefore, sending.id] : sentBefore;
    const alreadySent = (match?.alreadySent ?? []).map(fileRef);
    const container = buildEmpathyContainer({
      message: userText,
      history,
      lang,
      files: files.map(fileRef),
      sentIds,
      mentioned: sending ? fileRef(sending) : (alreadySent[0] ?? null),
      alreadySent,
      archivos,
      businessName: bot.business_name,
      now: turn.now,
      timezone: bot.timezone,
    });

    const attachment: Attachment | null = sending
      ? {
          url: publicFileUrl(sending.file_url, this.deps.baseUrl()),
          type: sending.file_type,
          name: sending.file_name,
          mime: sending.mime_type,
          fileId: sending.id,
          caption: fileSentence(lang, sending.file_type, inbound.messageId),
        }
      : null;

    let reply: string;
    let failed = false;
    const toolCalls: ToolCallRecord[] = [];
    const offline = !intercepted && !wordless && this.deps.llm === null;
    if (intercepted) {
      reply = intercepted.reply;
      options.onToken?.(reply);
    } else if (wordless) {
      reply = MEDIA_RECEIVED[lang].replace('{media}', mediaName ?? MEDIA_NAMES[lang].other);
      options.onToken?.(reply);
    } else if (this.deps.llm) {
      try {
        const runner = this.deps.registry.toolRunner(turn, toolCalls);
        const fragments = await this.deps.registry.promptFragments(turn.bot);
        const system = buildSystemPrompt({ bot, lang, files, fragments, container });
        reply = await this.deps.llm.complete(buildMessages(system, history, inbound.text), {
          ...(options.onToken ? { onToken: options.onToken } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
          ...(runner.available.length > 0
            ? {
                tools: {
                  definitions: toolDefinitions(runner.available.map((tool) => ({ tool }))),
                  run: (name: string, input: unknown) => runner.run(name, input),
                },
              }
            : {}),
        });
      } catch (err) {
        failed = true;
        this.deps.log.warn(
          { err, chatbotId: bot.id, model: this.deps.llm.model },
          'LLM failed; the follower gets the failure text',
        );
        reply = FAILURE_TEXTS[lang];
        options.onToken?.(reply);
      }
    } else {
      reply = (await this.offlineDialogue(turn, toolCalls)) ?? '';
      if (!reply) {
        reply = offlineReply({
          lang,
          businessName: bot.business_name,
          businessDescription: bot.business_description,
          message: inbound.text,
          files,
          container,
          firstTurn: history.length === 0,
        });
        if (!reply && attachment) reply = attachment.caption;
      }
      emitInPieces(reply, options.onToken);
    }
    if (archivos.action === 'LIST' && !failed) {
      const offer = listOffer(
        lang,
        archivos.lista.map((f) => f.file_name),
      );
      const suffix = reply.trim() ? `\n\n${offer}` : offer;
      reply = `${reply.trimEnd()}${suffix}`;
      options.onToken?.(suffix);
    }

    const meta: StoredTurnMeta = {
      attachment,
      archivosEnviados: sentIds,
      archivos,
      offline,
      failed,
      ...(toolCalls.length > 0 ? { tools: toolCalls } : {}),
    };
    const { turn: stored, duplicate } = await persistTurn(this.deps.db, {
      chatbotId: bot.id,
      channel: inbound.channel,
      userId: inbound.follower.id,
      username: inbound.follower.username ?? null,
      messageId: inbound.messageId,
      userText,
      userMeta,
      botText: reply,
      meta,
    });
    if (duplicate) return this.fromStored(stored, inbound, files, lang, bot);
    this.effects.record({ chatbotId: bot.id, channel: inbound.channel, userId: inbound.follower.id });
    return {
      reply,
      heard: userText,
      attachment,
      archivosEnviados: sentIds,
      contenedorEmpatico: container,
      offline,
      failed,
      duplicate: false,
      silent: false,
      tools: toolCalls,
    };
  }

  /** What plugins see of this turn (registry TurnContext). */
  private turnContext(
    inbound: InboundMessage,
    bot: Chatbot,
    files: ChatbotFile[],
    history: HistoryItem[],
  ): TurnContext {
    const adapter = this.deps.registry.adapters.get(inbound.channel);
    return {
      inbound,
      bot: turnBotOf(bot),
      files: files.map((f) => ({ ...fileRef(f), context: f.context })),
      history,
      offline: this.deps.llm === null,
      turnKey: `${inbound.chatbotId}:${inbound.channel}:${inbound.follower.id}:${inbound.messageId}`,
      now: this.now(),
      capabilities: adapter?.capabilities ?? null,
      async media(index) {
        const attachment = inbound.attachments?.[index];
        if (attachment?.data) return { data: attachment.data, mime: attachment.mime ?? null };
        if (!attachment?.channelFileId) throw new Error(`attachment ${index} has no channel file id`);
        if (!adapter?.downloadMedia) throw new Error(`channel ${inbound.channel} cannot download media`);
        return adapter.downloadMedia(inbound.chatbotId, attachment.channelFileId);
      },
    };
  }

  /** The plugins' offline dialogues (no LLM): the first reply wins; tool calls are recorded. */
  private async offlineDialogue(turn: TurnContext, record: ToolCallRecord[]): Promise<string | undefined> {
    const handlers = this.deps.registry.offlineHandlers();
    if (handlers.length === 0) return undefined;
    const runner = this.deps.registry.toolRunner(turn, record);
    for (const { plugin, handler } of handlers) {
      try {
        const out = await handler(turn, runner);
        if (out?.reply.trim()) return out.reply;
      } catch (err) {
        this.deps.log.error({ err, plugin }, 'plugin offline dialogue failed; the offline responder answers');
      }
    }
    return undefined;
  }

  /** Rebuilds the answer of a stored turn (a retried message id). */
  private fromStored(
    stored: StoredTurn,
    inbound: InboundMessage,
    files: ChatbotFile[],
    lang: ReturnType<typeof languageCode>,
    bot: { business_name: string; timezone: string },
    duplicate = true,
  ): TurnResult {
    const meta = stored.meta;
    const archivos = meta?.archivos ?? { action: 'NONE' as const, lista: [] };
    const container = buildEmpathyContainer({
      message: stored.userText,
      history: inbound.history ?? [],
      lang,
      files: files.map(fileRef),
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

/** What a silent turn stores with its (absent) reply. */
const EMPTY_META: StoredTurnMeta = {
  attachment: null,
  archivosEnviados: [],
  archivos: { action: 'NONE', lista: [] },
  offline: false,
  failed: false,
};

/** Streams a ready text word by word, so offline replies look like streamed ones. */
function emitInPieces(reply: string, onToken?: (text: string) => void): void {
  if (!onToken) return;
  for (const piece of reply.match(/\S+\s*|\s+/g) ?? []) onToken(piece);
}
