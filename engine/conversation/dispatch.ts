/**
 * The reply path (issue 25 §1: the engine owns the reply; adapters only parse and send). Every
 * follower message an adapter parses goes through {@link Dispatcher.dispatch}, which
 *
 * 1. answers what needs no turn: a plain `/start` (`inbound.command`) gets the bot's greeting, and
 *    a message the channel can no longer answer (`inbound.storeOnly`, WhatsApp's 24-hour window)
 *    is stored without a reply;
 * 2. runs the turn (`engine.handleTurn`, which stores the pair), showing "typing…" through the
 *    adapter's `typing` meanwhile;
 * 3. builds the outgoing message once (text, attachment, a LIST offer as `choices`);
 * 4. passes it through the plugins' outbound transformers once and either sends it through the
 *    adapter (`deliver: 'send'`: push channels) or gives it back (`deliver: 'return'`: the web
 *    routes answer their request with it).
 *
 * Steps 4's transform-and-send is {@link Outbox.deliver}, the same code owner replies, broadcasts
 * and reminders go through (engine/channels/outbound.ts). A silent turn sends nothing.
 */
import type { Kysely } from 'kysely';
import type { Outbox } from '../channels/outbound.ts';
import { AppError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type {
  ChannelAdapter,
  DispatchOptions,
  DispatchReply,
  InboundMessage,
  OutboundMessage,
  TurnResult,
} from '../registry/index.ts';
import { languageCode } from '../schemas.ts';
import type { Database, StoredTurnMeta } from '../store/database.ts';
import { persistTurn } from '../store/queries/messages.ts';
import { greeting } from './texts.ts';

/** What the dispatcher needs: the engine's turn, the outbox, the store. */
export interface DispatcherDeps {
  db: Kysely<Database>;
  /** Runs one turn and stores it (engine/conversation/engine.ts ConversationEngine). */
  turns: {
    handleTurn(
      inbound: InboundMessage,
      options?: Pick<DispatchOptions, 'onToken' | 'signal'>,
    ): Promise<TurnResult>;
  };
  outbox: Outbox;
  log: Logger;
}

/** The meta of a stored answer that carries no file (a greeting). */
const PLAIN_META: StoredTurnMeta = {
  attachment: null,
  archivosEnviados: [],
  archivos: { action: 'NONE', lista: [] },
  offline: false,
  failed: false,
};

/**
 * The outgoing message of a turn: the reply, its file, and a LIST offer as `choices` (adapters
 * with `choices` render buttons; the reply's text already numbers them for the others).
 */
export function outgoingOf(result: TurnResult): OutboundMessage {
  const archivos = result.contenedorEmpatico.archivos;
  return {
    text: result.reply,
    attachment: result.attachment,
    ...(archivos.action === 'LIST'
      ? { choices: archivos.lista.map((f) => ({ id: f.id, label: f.file_name })) }
      : result.choices?.length
        ? { choices: result.choices }
        : {}),
  };
}

/**
 * The reply path every follower message goes through (one per app, cli/app.ts): adapters reach it
 * as `ctx.dispatch`, bound to themselves.
 */
export class Dispatcher {
  constructor(private readonly deps: DispatcherDeps) {}

  /**
   * Answers one follower message through `adapter` (see the module comment). Without an adapter
   * (a channel no adapter serves, such as the CLI's `cli`) only `return` works, and the reply
   * comes back untransformed: transformers need the channel's capabilities.
   * @throws AppError BAD_REQUEST for `send` without an adapter; the engine's errors (AppError
   *   NOT_FOUND for an unknown bot, the LLM's abort), and the adapter's `send` errors (the inbox
   *   retries the update); a failing transformer is skipped (the registry's boundary) and, for
   *   `return`, a failing transform leaves the message as it is.
   */
  async dispatch(
    adapter: ChannelAdapter | undefined,
    inbound: InboundMessage,
    options: DispatchOptions,
  ): Promise<DispatchReply> {
    if (!adapter && options.deliver === 'send')
      throw new AppError('BAD_REQUEST', `No existe el canal ${inbound.channel}.`);
    const target = { chatbotId: inbound.chatbotId, chatId: inbound.follower.id };
    if (inbound.command === 'start') return this.greet(adapter, inbound, options);
    if (inbound.storeOnly) {
      await this.store(inbound, null, { silent: inbound.storeOnly });
      return { result: null, message: null, receipt: null };
    }
    const stopTyping = adapter && options.deliver === 'send' ? this.typing(adapter, inbound) : () => {};
    let result: TurnResult;
    try {
      result = await this.deps.turns.handleTurn(inbound, {
        ...(options.onToken ? { onToken: options.onToken } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } finally {
      stopTyping();
    }
    if (result.silent) return { result, message: null, receipt: null };
    const base = outgoingOf(result);
    // Without an adapter the deliver is `return` (checked above).
    if (options.deliver === 'return' || !adapter) {
      // Nothing to speak or wrap in an empty reply; a request/response channel keeps its answer
      // when a transformer's setup fails (the reply stays text).
      if (!adapter || options.transform === false || !result.reply)
        return { result, message: base, receipt: null };
      try {
        const { message } = await this.deps.outbox.deliver(adapter, target, base, {
          inbound,
          deliver: 'return',
        });
        return { result, message, receipt: null };
      } catch (err) {
        this.deps.log.warn(
          { err, channel: adapter.id },
          'outbound transformers failed; the reply stays as it is',
        );
        return { result, message: base, receipt: null };
      }
    }
    const { message, receipt } = await this.deps.outbox.deliver(adapter, target, base, { inbound });
    return { result, message, receipt };
  }

  /**
   * A plain `/start`: the greeting in the bot's language, stored with the follower's message and
   * sent as it is (a greeting is not a reply the transformers speak).
   */
  private async greet(
    adapter: ChannelAdapter | undefined,
    inbound: InboundMessage,
    options: DispatchOptions,
  ): Promise<DispatchReply> {
    const bot = await this.deps.outbox.bot(inbound.chatbotId);
    const hello = greeting(languageCode(bot.idioma), bot.business_name);
    await this.store(inbound, hello, null);
    if (!adapter) return { result: null, message: { text: hello }, receipt: null };
    const { message, receipt } = await this.deps.outbox.deliver(
      adapter,
      { chatbotId: inbound.chatbotId, chatId: inbound.follower.id },
      { text: hello },
      { transform: false, deliver: options.deliver },
    );
    return { result: null, message, receipt };
  }

  /** Stores a follower's message and the engine's own answer (or none), without a turn. */
  private async store(
    inbound: InboundMessage,
    botText: string | null,
    userMeta: { silent: { plugin: string; reason: string } } | null,
  ): Promise<void> {
    await persistTurn(this.deps.db, {
      chatbotId: inbound.chatbotId,
      channel: inbound.channel,
      userId: inbound.follower.id,
      username: inbound.follower.username ?? null,
      messageId: inbound.messageId,
      userText: inbound.text,
      ...(userMeta ? { userMeta } : {}),
      botText,
      meta: PLAIN_META,
    });
  }

  /** Starts the adapter's "typing…" (repeated every `typingEveryMs`); returns what stops it. */
  private typing(adapter: ChannelAdapter, inbound: InboundMessage): () => void {
    const show = adapter.typing?.bind(adapter);
    if (!show) return () => {};
    const stops: Array<() => void> = [];
    const ping = () => {
      try {
        const stop = show(inbound.chatbotId, inbound.follower.id, inbound);
        if (stop) stops.push(stop);
      } catch (err) {
        this.deps.log.debug({ err, channel: adapter.id }, 'typing indicator failed');
      }
    };
    ping();
    const timer = adapter.typingEveryMs ? setInterval(ping, adapter.typingEveryMs) : undefined;
    timer?.unref();
    return () => {
      if (timer) clearInterval(timer);
      for (const stop of stops.splice(0)) {
        try {
          stop();
        } catch (err) {
          this.deps.log.debug({ err, channel: adapter.id }, 'stopping the typing indicator failed');
        }
      }
    };
  }
}
