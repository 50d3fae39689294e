/**
 * Parsing Telegram updates (issue 5) into the engine's inbound messages: a follower's message
 * (text, media, or both), a plain `/start` (the engine answers it with the greeting), and a tap on
 * a LIST button (that file's name, with the file as offered). Media travels as an inbound
 * attachment with its `file_id`: a plugin may transcribe it, otherwise the engine keeps it and
 * asks for words. The engine owns the reply (engine/conversation/dispatch.ts): it shows "typing…"
 * through the adapter, runs the turn and the outbound transformers, and sends through the
 * adapter's `send` (bot-api.ts); a silent turn sends nothing.
 */
import type { CallbackQuery, Message } from 'grammy/types';
import type { ChannelContext, InboundMessage } from '../../engine/registry/index.ts';
import { findFile } from '../../engine/store/queries/files.ts';
import type { Connection } from './types.ts';
import { receivedMedia, TELEGRAM } from './updates.ts';

/** What the handlers need from the adapter. */
export interface HandlerDeps {
  ctx: () => ChannelContext;
}

/**
 * What the inbox calls a Telegram follower (issue 27 §4.2): `name` their first and last name,
 * `handle` their `@username`; null for what Telegram does not give.
 */
export function followerNames(
  from: { first_name?: string; last_name?: string; username?: string } | undefined,
): { name: string | null; handle: string | null } {
  const name = [from?.first_name, from?.last_name].filter(Boolean).join(' ').trim();
  return { name: name || null, handle: from?.username ? `@${from.username}` : null };
}

/** Creates the handlers of one adapter's updates. */
export function createUpdateHandlers(deps: HandlerDeps) {
  /** Hands a parsed message to the engine, which answers through the adapter's `send`. */
  async function answer(inbound: InboundMessage): Promise<void> {
    await deps.ctx().dispatch(inbound, { deliver: 'send' });
  }

  async function handleMessage(conn: Connection, message: Message) {
    const ctx = deps.ctx();
    if (!(await ctx.bots.get(conn.chatbotId))) return; // the bot was deleted: nothing to answer
    const chatId = String(message.chat.id);
    const follower = {
      id: chatId,
      username: message.from?.username ?? message.from?.first_name ?? null,
      ...followerNames(message.from),
    };
    const messageId = `${chatId}:${message.message_id}`;
    const text = (message.text ?? message.caption ?? '').trim();
    const received = receivedMedia(message);

    // A plain /start gets the greeting; a deep link's `/start <payload>` (t.me/<bot>?start=<payload>)
    // goes through the engine, where a plugin may claim it (the owner linking their phone).
    const base = { chatbotId: conn.chatbotId, channel: TELEGRAM, follower, text, messageId };
    if (/^\/start(@\w+)?$/.test(text)) {
      await answer({ ...base, command: 'start' });
      return;
    }
    // A service message (a member joined, a pin, a group upgrade) has neither words nor media: no reply.
    if (!text && !received) return;
    await answer({
      ...base,
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
    if (!(await ctx.bots.get(conn.chatbotId))) return;
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
    await answer({
      chatbotId: conn.chatbotId,
      channel: TELEGRAM,
      follower: {
        id: chatId,
        username: query.from.username ?? query.from.first_name ?? null,
        ...followerNames(query.from),
      },
      text,
      messageId: `cb:${query.id}`,
      offered: [fileId],
    });
  }

  return { handleMessage, handleCallback };
}
