/**
 * Answering Telegram updates (issue 5): a follower's message (text, media, or both) goes through
 * the engine while "typing…" shows, `/start` gets the greeting in the bot's language, a tap on a
 * LIST button sends that file. Media travels as an inbound attachment with its `file_id`: a plugin
 * may transcribe it, otherwise the engine keeps it and asks for words. Replies go out through
 * bot-api.ts (split text, files by type, buttons) after the plugins' outbound transformers; a
 * silent turn (the owner took over) sends nothing.
 */
import type { Api } from 'grammy';
import type { CallbackQuery, Message } from 'grammy/types';
import { greeting } from '../../engine/conversation/texts.ts';
import type {
  ChannelContext,
  InboundMessage,
  OutboundMessage,
  TurnResult,
} from '../../engine/registry/index.ts';
import { type Attachment, languageCode } from '../../engine/schemas.ts';
import { publicFileUrl } from '../../engine/storage/index.ts';
import { findFile } from '../../engine/store/queries/files.ts';
import { persistTurn } from '../../engine/store/queries/messages.ts';
import { type FileSource, sendReply } from './bot-api.ts';
import type { Connection } from './index.ts';
import { telegramCredentials } from './queries.ts';
import { receivedMedia, TELEGRAM } from './updates.ts';

/** What the handlers need from the adapter. */
export interface HandlerDeps {
  ctx: () => ChannelContext;
  /** Records a failure for the owner's health view. */
  recordError: (chatbotId: string, message: string) => void;
}

/** Creates the handlers of one adapter's updates. */
export function createUpdateHandlers(deps: HandlerDeps) {
  const { recordError } = deps;

  /** Where an attachment's bytes are: the stored file on disk, or its public address. */
  async function resolveFile(attachment: Attachment): Promise<FileSource> {
    const ctx = deps.ctx();
    const file = await findFile(ctx.db, attachment.fileId);
    const path = file ? ctx.filePath(file.file_url) : null;
    if (path) return { path };
    return { url: file ? publicFileUrl(file.file_url, ctx.publicUrl) : attachment.url };
  }

  /** Shows "typing…" until `done` settles (Bot API: an action lasts 5 s or until a message). */
  async function whileTyping<T>(api: Api, chatId: string, work: Promise<T>): Promise<T> {
    const ping = () => api.sendChatAction(chatId, 'typing').catch(() => {});
    void ping();
    const timer = setInterval(ping, 4500);
    try {
      return await work;
    } finally {
      clearInterval(timer);
    }
  }

  async function deliver(conn: Connection, chatId: string, result: TurnResult, inbound: InboundMessage) {
    if (result.silent) return;
    const ctx = deps.ctx();
    const archivos = result.contenedorEmpatico.archivos;
    const base: OutboundMessage = {
      text: result.reply,
      attachment: result.attachment,
      ...(archivos.action === 'LIST'
        ? { choices: archivos.lista.map((f) => ({ id: f.id, label: f.file_name })) }
        : {}),
    };
    const message = await ctx.transformOutbound(base, { chatbotId: conn.chatbotId, chatId, inbound });
    await sendReply(conn.api, chatId, message, resolveFile, conn.fileIds, (reason) =>
      recordError(conn.chatbotId, `Telegram rechazó el archivo ${result.attachment?.name ?? ''}: ${reason}`),
    );
  }

  async function answer(conn: Connection, chatId: string, inbound: InboundMessage) {
    const ctx = deps.ctx();
    const result = await whileTyping(conn.api, chatId, ctx.dispatch(inbound));
    await deliver(conn, chatId, result, inbound);
  }

  async function handleMessage(conn: Connection, message: Message) {
    const ctx = deps.ctx();
    const loaded = await telegramCredentials(ctx.db, conn.chatbotId);
    if (!loaded) return; // the bot was deleted: nothing to answer
    const bot = {
      id: loaded.id,
      user_id: loaded.user_id,
      business_name: loaded.business_name,
      idioma: loaded.idioma,
    };
    const lang = languageCode(bot.idioma);
    const chatId = String(message.chat.id);
    const follower = { id: chatId, username: message.from?.username ?? message.from?.first_name ?? null };
    const messageId = `${chatId}:${message.message_id}`;
    const text = (message.text ?? message.caption ?? '').trim();
    const received = receivedMedia(message);

    // A plain /start gets the greeting; a deep link's `/start <payload>` (t.me/<bot>?start=<payload>)
    // goes through the engine, where a plugin may claim it (the owner linking their phone).
    if (/^\/start(@\w+)?$/.test(text)) {
      const hello = greeting(lang, bot.business_name);
      await persistTurn(ctx.db, {
        chatbotId: bot.id,
        channel: TELEGRAM,
        userId: chatId,
        username: follower.username,
        messageId,
        userText: text,
        botText: hello,
        meta: {
          attachment: null,
          archivosEnviados: [],
          archivos: { action: 'NONE', lista: [] },
          offline: false,
          failed: false,
        },
      });
      await sendReply(conn.api, chatId, { text: hello }, resolveFile, conn.fileIds);
      return;
    }
    // A service message (a member joined, a pin, a group upgrade) has neither words nor media: no reply.
    if (!text && !received) return;
    await answer(conn, chatId, {
      chatbotId: bot.id,
      channel: TELEGRAM,
      follower,
      text,
      messageId,
      ...(message.reply_to_message ? { replyTo: `${chatId}:${message.reply_to_message.message_id}` } : {}),
      ...(received
        ? {
            attachments: [
              {
                type: received.kind,
                channelFileId: received.fileId,
                ...(received.mime ? { mime: received.mime } : {}),
              },
            ],
          }
        : {}),
    });
  }

  async function handleCallback(conn: Connection, query: CallbackQuery) {
    const ctx = deps.ctx();
    await conn.api.answerCallbackQuery(query.id).catch(() => {});
    const data = query.data ?? '';
    if (!data.startsWith('f:')) return;
    const fileId = data.slice(2);
    const loaded = await telegramCredentials(ctx.db, conn.chatbotId);
    if (!loaded) return;
    const chatId = String(query.message?.chat.id ?? query.from.id);
    const label =
      query.message && 'reply_markup' in query.message
        ? query.message.reply_markup?.inline_keyboard
            .flat()
            .find((b) => 'callback_data' in b && b.callback_data === data)?.text
        : undefined;
    // Callback data comes from the client (Bot API: it can be anything): only this bot's files count.
    const found = label ? undefined : await findFile(ctx.db, fileId);
    const file = found?.chatbot_id === conn.chatbotId ? found : undefined;
    const text = label ?? file?.file_name;
    if (!text) return;
    await answer(conn, chatId, {
      chatbotId: loaded.id,
      channel: TELEGRAM,
      follower: { id: chatId, username: query.from.username ?? query.from.first_name ?? null },
      text,
      messageId: `cb:${query.id}`,
      offered: [fileId],
    });
  }

  return { handleMessage, handleCallback, resolveFile };
}
