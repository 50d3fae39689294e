/**
 * Answering a follower on WhatsApp, the same for both backends (issue 13). {@link answer} parses a
 * stored message into the engine's inbound message and hands it to `ctx.dispatch`, which owns the
 * reply (engine/conversation/dispatch.ts: "typing…" through the adapter, the turn, the outbound
 * transformers; a silent turn sends nothing). {@link deliver} is the adapter's `send`: text split at
 * 4096 characters, the LIST offer as an interactive list where the backend has one (the engine's
 * numbered text otherwise), then the file with the message type its kind needs, then a voice note
 * when a plugin made one.
 */
import { splitText } from '../../../engine/channels/split.ts';
import { attachmentSource } from '../../../engine/files.ts';
import type { ChannelContext, InboundMessage, OutboundMessage } from '../../../engine/registry/index.ts';
import type { Attachment, LangCode } from '../../../engine/schemas.ts';
import { isMissingFile, MissingFileError } from '../../../engine/storage/index.ts';
import { findFile } from '../../../engine/store/queries/files.ts';
import type { ConnectionRow } from '../queries.ts';
import { fillText, LIST_BUTTON, WHATSAPP_ERRORS } from '../texts.ts';
import { type FileSource, PermanentSendError, type WaInbound, type WaTransport, WHATSAPP } from './types.ts';

/** WhatsApp's text message limit, characters (Cloud API text.body: 4096). */
export const MAX_TEXT = 4096;
/** The Cloud API's 24-hour customer service window, ms. */
export const SERVICE_WINDOW_MS = 24 * 3600_000;

/** What answering needs from the adapter. */
export interface AnswerDeps {
  ctx: () => ChannelContext;
  /** Records a problem for the owner's health view. */
  recordError: (chatbotId: string, message: string) => Promise<void>;
}

/** Creates the answering functions of one adapter. */
export function createAnswering(deps: AnswerDeps) {
  /**
   * Where an attachment's bytes are: the stored file (local disk or S3), or its public address.
   * @throws PermanentSendError when the stored file is gone: sending again would not find it either.
   */
  async function resolveFile(attachment: Attachment): Promise<FileSource> {
    const ctx = deps.ctx();
    // A bot file, or an owner's file kept in the storage (issue 27 §3), uploaded; else its address.
    const source = await attachmentSource(ctx.db, attachment, ctx.publicUrl);
    if ('url' in source) return { url: source.url };
    const read = async () => {
      try {
        const opened = await ctx.openFile(source.key);
        if (!opened) throw new MissingFileError(source.key);
        const chunks: Buffer[] = [];
        for await (const chunk of opened.stream) chunks.push(Buffer.from(chunk as Uint8Array));
        return Buffer.concat(chunks);
      } catch (err) {
        if (isMissingFile(err)) throw new PermanentSendError(err.message);
        throw err;
      }
    };
    return { read };
  }

  /**
   * Sends a message to a follower (a reply, or an owner's message through `send`).
   * @throws PermanentSendError when WhatsApp refuses the text (the file and voice note refusals
   *   are recorded for the owner instead, the text having gone out); other errors to retry.
   */
  async function deliver(
    transport: WaTransport & { listBodyMax: number },
    chatbotId: string,
    chatId: string,
    message: OutboundMessage,
    lang: LangCode,
  ): Promise<void> {
    const parts = splitText(message.text, MAX_TEXT);
    const choices = message.choices?.length ? message.choices : null;
    // The last part becomes the list's body when the list can carry it.
    const last = parts.at(-1);
    const listBody =
      choices && transport.listBodyMax > 0 && last !== undefined && last.length <= transport.listBodyMax
        ? parts.pop()!
        : null;
    for (const part of parts) await transport.sendText(chatId, part);
    if (choices) {
      const sent = await transport.sendChoices(chatId, listBody ?? LIST_BUTTON[lang].body, choices, lang);
      if (sent === 'unsupported' && listBody) await transport.sendText(chatId, listBody);
    }
    if (message.attachment) {
      const attachment = message.attachment;
      try {
        await transport.sendAttachment(chatId, attachment, await resolveFile(attachment));
      } catch (err) {
        // The text went out: a refused file must not make the whole reply be sent again.
        if (!(err instanceof PermanentSendError)) throw err;
        await deps.recordError(
          chatbotId,
          fillText(WHATSAPP_ERRORS.fileRefused, { file: attachment.name, reason: err.message }),
        );
      }
    }
    if (message.voice) {
      try {
        await transport.sendVoice(chatId, message.voice);
      } catch (err) {
        if (!(err instanceof PermanentSendError)) throw err;
        await deps.recordError(
          chatbotId,
          fillText(WHATSAPP_ERRORS.sendFailed, { chat: chatId, reason: err.message }),
        );
      }
    }
  }

  /**
   * Hands one stored follower message to the engine, which answers it through the adapter's
   * `send` (engine/conversation/dispatch.ts). A Cloud API message older than the 24-hour window
   * (it waited while the bot was paused) is stored without a reply, and the owner sees why.
   */
  async function answer(bot: Pick<ConnectionRow, 'id'>, p: WaInbound, now: Date): Promise<void> {
    const ctx = deps.ctx();
    let text = p.text;
    let offered: string[] | undefined;
    if (p.pickedFileId) {
      // A list row's id comes from the follower's client: only this bot's files count.
      const file = await findFile(ctx.db, p.pickedFileId);
      if (file?.chatbot_id === bot.id) {
        text = file.file_name;
        offered = [file.id];
      }
    }
    if (!text && !p.media) return; // nothing to answer (a reaction, a deleted message)
    const expired = p.backend === 'cloud' && now.getTime() - p.timestamp * 1000 > SERVICE_WINDOW_MS;
    const inbound: InboundMessage = {
      chatbotId: bot.id,
      channel: WHATSAPP,
      // Issue 27 §4.2: the inbox shows the profile name and the number.
      follower: {
        id: p.chatId,
        username: p.pushName,
        name: p.pushName,
        handle: p.phone ? `+${p.phone}` : null,
      },
      text,
      messageId: p.waMessageId,
      ...(p.media
        ? {
            attachments: [
              {
                type: p.media.kind,
                channelFileId: p.media.channelFileId,
                ...(p.media.mime ? { mime: p.media.mime } : {}),
              },
            ],
          }
        : {}),
      ...(offered ? { offered } : {}),
      ...(expired ? { storeOnly: { plugin: WHATSAPP, reason: '24h-window' } } : {}),
    };
    await ctx.dispatch(inbound, { deliver: 'send' });
    if (expired) await deps.recordError(bot.id, fillText(WHATSAPP_ERRORS.window24h, { chat: p.chatId }));
  }

  return { deliver, answer, resolveFile };
}
