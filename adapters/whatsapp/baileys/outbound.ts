/**
 * What a Charla file or voice note becomes as a linked-device message (issue 13; Baileys'
 * `AnyMessageContent`): images as images, videos as videos, PDFs and other files as documents with
 * their file name, OGG/Opus audio as a voice note (`ptt`), other audio as audio. Audio has no
 * caption on WhatsApp, so a caption goes first as its own text (`captionFirst`).
 */
import type { OutboundMessage } from '../../../engine/registry/index.ts';
import type { Attachment } from '../../../engine/schemas.ts';
import type { AnyMessageContent } from './lib.ts';

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
