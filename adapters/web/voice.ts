/**
 * Voice on the web channel (issue 15 §1, §2): the widget's microphone button sends a recording
 * (`POST /api/web/:key/voice`, multipart) that goes through the engine as a voice note, so a
 * transcribing plugin can hear it; and a reply that an outbound transformer gave a voice note (the
 * voice plugin's "Respuestas de voz") comes back inline as a `data:audio/ogg;base64,…` address the
 * widget and the IALanding play. Nothing is stored on disk: the recording lives for the request.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../engine/errors.ts';
import type { ChannelContext, InboundMessage, TurnResult } from '../../engine/registry/index.ts';

/** Largest recording taken, bytes (10 MB, the attached files' limit). */
export const MAX_WEB_RECORDING_BYTES = 10 * 1024 * 1024;

/** Recordings of requests being answered, by their id (the inbound attachment's channelFileId). */
const recordings = new Map<string, { data: Buffer; mime: string | null }>();

/** The bytes of a recording being answered (the web adapter's downloadMedia). */
export function recordingOf(id: string): { data: Buffer; mime: string | null } {
  const found = recordings.get(id);
  if (!found) throw new Error('the recording is no longer available');
  return found;
}

/** The fields of `POST /api/web/:key/voice` besides the recording. */
export const WebVoiceFields = z.object({
  visitorId: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[\w-]+$/),
  channel: z.enum(['web', 'ialanding']).default('web'),
  messageId: z.string().max(200).optional(),
});

/**
 * Reads the multipart upload: the fields and one recording.
 * @throws AppError BAD_REQUEST without a visitor id or a recording; PAYLOAD_TOO_LARGE over 10 MB.
 */
export async function readVoiceUpload(
  req: FastifyRequest,
): Promise<{ fields: z.infer<typeof WebVoiceFields>; audio: Buffer; mime: string | null }> {
  if (!req.isMultipart()) throw new AppError('BAD_REQUEST', 'Envía el audio como multipart/form-data.');
  const raw: Record<string, string> = {};
  let audio: Buffer | undefined;
  let mime: string | null = null;
  for await (const part of req.parts({
    limits: { fileSize: MAX_WEB_RECORDING_BYTES, files: 1, fields: 5 },
  })) {
    if (part.type === 'file') {
      try {
        audio = await part.toBuffer();
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw new AppError('PAYLOAD_TOO_LARGE', 'La grabación supera los 10 MB.');
        throw err;
      }
      mime = part.mimetype || null;
    } else raw[part.fieldname] = String(part.value ?? '');
  }
  const fields = WebVoiceFields.safeParse(raw);
  if (!fields.success) throw new AppError('BAD_REQUEST', 'Falta el identificador del visitante.');
  if (!audio?.length) throw new AppError('BAD_REQUEST', 'Falta el audio.');
  return { fields: fields.data, audio, mime };
}

/** Runs `turn` with the recording reachable by `inbound`'s attachment, then forgets it. */
export async function withRecording<T>(
  audio: Buffer,
  mime: string | null,
  turn: (attachment: NonNullable<InboundMessage['attachments']>[number]) => Promise<T>,
): Promise<T> {
  const id = `webrec-${randomUUID()}`;
  recordings.set(id, { data: audio, mime });
  try {
    return await turn({ type: 'voice', channelFileId: id, ...(mime ? { mime } : {}) });
  } finally {
    recordings.delete(id);
  }
}

/**
 * The reply's voice note as the plugins' outbound transformers make it for the web channel, as a
 * data address; null when no transformer spoke it (or it failed: the reply stays text).
 */
export async function spokenReply(
  ctx: ChannelContext,
  result: TurnResult,
  inbound: InboundMessage,
): Promise<string | null> {
  if (result.silent || !result.reply) return null;
  try {
    const out = await ctx.transformOutbound(
      { text: result.reply, attachment: result.attachment },
      { chatbotId: inbound.chatbotId, chatId: inbound.follower.id, inbound },
    );
    return out.voice ? `data:audio/ogg;base64,${out.voice.data.toString('base64')}` : null;
  } catch (err) {
    ctx.log.warn({ err }, 'the web reply’s voice note failed; it stays text');
    return null;
  }
}
