/** Reading Bot API updates (https://core.telegram.org/bots/api#update). */
import type { Message, Update } from 'grammy/types';
import type { ReceivedKind } from '../../engine/conversation/texts.ts';

/** The channel id: inbox rows, conversation messages and followers carry it. */
export const TELEGRAM = 'telegram';

/** The chat an update belongs to (its inbox queue); updates without one share queue `0`. */
export function chatIdOf(update: Update): string {
  const id =
    update.message?.chat.id ?? update.callback_query?.message?.chat.id ?? update.callback_query?.from.id;
  return id === undefined ? '0' : String(id);
}

/** The media a follower's message carries, if any (the largest photo size). */
export function receivedMedia(
  message: Message,
): { kind: ReceivedKind; fileId: string; mime: string | null } | null {
  if (message.voice)
    return { kind: 'voice', fileId: message.voice.file_id, mime: message.voice.mime_type ?? null };
  if (message.audio)
    return { kind: 'audio', fileId: message.audio.file_id, mime: message.audio.mime_type ?? null };
  if (message.photo?.length)
    return { kind: 'photo', fileId: message.photo.at(-1)!.file_id, mime: 'image/jpeg' };
  if (message.video)
    return { kind: 'video', fileId: message.video.file_id, mime: message.video.mime_type ?? null };
  if (message.video_note) return { kind: 'video', fileId: message.video_note.file_id, mime: 'video/mp4' };
  if (message.document)
    return { kind: 'document', fileId: message.document.file_id, mime: message.document.mime_type ?? null };
  if (message.sticker) return { kind: 'sticker', fileId: message.sticker.file_id, mime: null };
  return null;
}
