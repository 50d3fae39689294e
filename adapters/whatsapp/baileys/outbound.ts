/**
 * What a Charla file or voice note becomes as a linked-device message (issue 13; Baileys'
 * `AnyMessageContent`): images as images, videos as videos, PDFs and other files as documents with
 * their file name, OGG/Opus audio as a voice note (`ptt`), other audio as audio. Audio has no
 * caption on WhatsApp, so a caption goes first as its own text (`captionFirst`). Also how a linked
 * device sends: paced per number (PacedSender), "typing…" while the engine works (showTyping), and
 * the sent messages Baileys asks for again (findSentMessage).
 */
import type { OutboundMessage } from '../../../engine/registry/index.ts';
import type { Attachment } from '../../../engine/schemas.ts';
import { messageContent } from '../messages.ts';
import type { WaInbound } from '../shared/types.ts';
import type { WaDb } from '../tables.ts';
import type { AnyMessageContent, BaileysLib, WAMessage, WASocket } from './lib.ts';

/** The message content of a file (its bytes, or an address Baileys fetches). */
export function attachmentContent(
  attachment: Attachment,
  media: Buffer | { url: string },
): { content: AnyMessageContent; captionFirst: string | undefined } {
  const caption = attachment.caption || undefined;
  const content: AnyMessageContent =
    attachment.type === 'image'
      ? { image: media, mimetype: attachment.mime, ...(caption ? { caption } : {}) }
      : attachment.type === 'video'
        ? { video: media, mimetype: attachment.mime, ...(caption ? { caption } : {}) }
        : attachment.type === 'audio'
          ? /ogg|opus/i.test(attachment.mime)
            ? { audio: media, mimetype: 'audio/ogg; codecs=opus', ptt: true }
            : { audio: media, mimetype: attachment.mime }
          : {
              document: media,
              mimetype: attachment.mime,
              fileName: attachment.name,
              ...(caption ? { caption } : {}),
            };
  return { content, captionFirst: attachment.type === 'audio' ? caption : undefined };
}

/** The message content of a voice note (OGG/Opus, played as a recorded voice message). */
export function voiceContent(voice: NonNullable<OutboundMessage['voice']>): AnyMessageContent {
  return {
    audio: voice.data,
    mimetype: 'audio/ogg; codecs=opus',
    ptt: true,
    ...(voice.durationS ? { seconds: Math.round(voice.durationS) } : {}),
  };
}

/** A message the socket sent, to store for Baileys' `getMessage` (retry receipts). */
export interface SentMessage {
  id: string;
  chatId: string;
  message: NonNullable<WAMessage['message']>;
}

/**
 * Sends one number's messages one at a time, at least `intervalMs` apart (WhatsApp bans numbers
 * that burst), on the socket `socket()` gives (it may wait for a reconnect), and hands each sent
 * message to `stored`.
 */
export class PacedSender {
  #chain: Promise<unknown> = Promise.resolve();
  #lastAt = 0;

  constructor(
    private readonly options: {
      intervalMs: number;
      socket: () => Promise<WASocket>;
      stored: (sent: SentMessage) => Promise<void>;
    },
  ) {}

  /** Sends `content` to `jid` after the messages queued before it. @throws the socket's error. */
  async send(jid: string, content: AnyMessageContent): Promise<void> {
    const run = this.#chain.then(async () => {
      const wait = this.#lastAt + this.options.intervalMs - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait).unref());
      try {
        return await (await this.options.socket()).sendMessage(jid, content);
      } finally {
        this.#lastAt = Date.now();
      }
    });
    this.#chain = run.catch(() => {});
    const sent = await run;
    if (sent?.key.id && sent.message)
      await this.options.stored({ id: sent.key.id, chatId: jid, message: sent.message });
  }
}

/**
 * Shows "typing…" to a follower (and marks their message read) until the returned function is
 * called, repeating it every `everyMs` (WhatsApp drops it after ~25 s).
 */
export function showTyping(
  sock: WASocket,
  inbound: Pick<WaInbound, 'waMessageId'> | null,
  chatId: string,
  everyMs: number,
): () => void {
  if (inbound)
    void sock.readMessages([{ remoteJid: chatId, id: inbound.waMessageId, fromMe: false }]).catch(() => {});
  const ping = () => void sock.sendPresenceUpdate('composing', chatId).catch(() => {});
  ping();
  const timer = setInterval(ping, everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    void sock.sendPresenceUpdate('paused', chatId).catch(() => {});
  };
}

/** Baileys' `getMessage`: a message this bot sent (for a retry receipt), from the store; undefined on a miss. */
export async function findSentMessage(
  deps: { lib: BaileysLib; db: WaDb; chatbotId: string },
  id: string | null | undefined,
) {
  if (!id) return undefined;
  const content = await messageContent(deps.db, deps.chatbotId, id, 'out').catch(() => undefined);
  if (!content) return undefined;
  return deps.lib.proto.Message.fromObject(JSON.parse(content, deps.lib.BufferJSON.reviver));
}
