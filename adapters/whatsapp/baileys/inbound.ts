/**
 * Reading what a linked device receives (Baileys `messages.upsert`). Only one-to-one messages from
 * followers count: the bot's own messages (sent from the phone or by Charla), groups, broadcast
 * lists, status updates and newsletters are left alone. Followers are keyed by the JID WhatsApp
 * uses for the chat (a LID `…@lid` or a phone JID `…@s.whatsapp.net`); their phone number is kept
 * when the message carries it (a phone JID, or Baileys' `remoteJidAlt` beside a LID).
 */
import type { ReceivedKind } from '../../../engine/conversation/texts.ts';
import type { Logger } from '../../../engine/logger.ts';
import { messageContent } from '../messages.ts';
import type { WaInbound } from '../shared/types.ts';
import type { WaDb } from '../tables.ts';
import type { BaileysLib, WAMessage, WASocket } from './lib.ts';

/** The digits of a phone JID (`34600111222@s.whatsapp.net` → `34600111222`), or null. */
export function phoneOf(lib: Pick<BaileysLib, 'isPnUser' | 'jidDecode'>, jid: string | null | undefined) {
  if (!jid || !lib.isPnUser(jid)) return null;
  return lib.jidDecode(jid)?.user ?? null;
}

/**
 * Normalises one received message, or returns null for what the bot does not answer.
 * @returns the message as the inbox stores it; `raw` carries the message proto when it has media.
 */
export function normalizeBaileys(lib: BaileysLib, msg: WAMessage): WaInbound | null {
  const key = msg.key;
  const jid = key.remoteJid;
  if (!jid || key.fromMe || !key.id) return null;
  if (
    lib.isJidGroup(jid) ||
    lib.isJidBroadcast(jid) ||
    lib.isJidStatusBroadcast(jid) ||
    lib.isJidNewsletter(jid)
  )
    return null;
  if (!lib.isPnUser(jid) && !lib.isLidUser(jid)) return null;
  const content = lib.normalizeMessageContent(msg.message);
  if (!content) return null;
  const text = (
    content.conversation ??
    content.extendedTextMessage?.text ??
    content.imageMessage?.caption ??
    content.videoMessage?.caption ??
    content.documentMessage?.caption ??
    content.documentWithCaptionMessage?.message?.documentMessage?.caption ??
    content.listResponseMessage?.title ??
    content.buttonsResponseMessage?.selectedDisplayText ??
    content.templateButtonReplyMessage?.selectedDisplayText ??
    ''
  ).trim();
  const chatId = lib.jidNormalizedUser(jid);
  const media = mediaOf(content);
  if (!text && !media) return null; // a reaction, a receipt, a protocol message
  return {
    backend: 'baileys',
    chatId,
    waMessageId: key.id,
    text,
    pushName: msg.pushName ?? null,
    phone: phoneOf(lib, jid) ?? phoneOf(lib, key.remoteJidAlt),
    timestamp: Number(msg.messageTimestamp ?? Math.floor(Date.now() / 1000)),
    media: media ? { ...media, channelFileId: key.id } : null,
    pickedFileId: null,
    raw: media ? JSON.stringify({ key, message: msg.message }, lib.BufferJSON.replacer) : null,
  };
}

/** The media kind and type of a message's content, if it carries media. */
function mediaOf(
  content: NonNullable<ReturnType<BaileysLib['normalizeMessageContent']>>,
): { kind: ReceivedKind; mime: string | null } | null {
  if (content.audioMessage)
    return {
      kind: content.audioMessage.ptt ? 'voice' : 'audio',
      mime: content.audioMessage.mimetype ?? null,
    };
  if (content.imageMessage) return { kind: 'photo', mime: content.imageMessage.mimetype ?? null };
  if (content.videoMessage) return { kind: 'video', mime: content.videoMessage.mimetype ?? null };
  if (content.ptvMessage) return { kind: 'video', mime: content.ptvMessage.mimetype ?? null };
  const doc = content.documentMessage ?? content.documentWithCaptionMessage?.message?.documentMessage;
  if (doc) return { kind: 'document', mime: doc.mimetype ?? null };
  if (content.stickerMessage) return { kind: 'sticker', mime: content.stickerMessage.mimetype ?? null };
  return null;
}

/** The MIME type of a stored media message (for downloads). */
export function mimeOf(lib: BaileysLib, message: WAMessage): string | null {
  const content = lib.normalizeMessageContent(message.message);
  return content ? (mediaOf(content)?.mime ?? null) : null;
}

/**
 * Downloads media a follower sent (`channelFileId`: the stored message's id) from the message kept
 * in the store; Baileys asks the phone to upload it again when WhatsApp's copy expired (`sock`).
 * @throws when the message is not stored or the media cannot be fetched.
 */
export async function downloadStoredMedia(
  deps: { lib: BaileysLib; db: WaDb; chatbotId: string; log: Logger },
  sock: WASocket | null,
  channelFileId: string,
): Promise<{ data: Buffer; mime: string | null }> {
  const { lib, db, chatbotId, log } = deps;
  const content = await messageContent(db, chatbotId, channelFileId, 'in');
  if (!content) throw new Error(`no stored WhatsApp media ${channelFileId}`);
  const message = JSON.parse(content, lib.BufferJSON.reviver) as WAMessage;
  const data = await lib.downloadMediaMessage(
    message,
    'buffer',
    {},
    {
      logger: log.child({ component: 'baileys' }, { level: 'warn' }),
      reuploadRequest: (m) => (sock ? sock.updateMediaMessage(m) : Promise.reject(new Error('offline'))),
    },
  );
  return { data, mime: mimeOf(lib, message) };
}
