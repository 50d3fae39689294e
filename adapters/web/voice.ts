/**
 * Voice on the web channel (issue 15 §1, §2): the widget's microphone button sends a recording
 * (`POST /api/web/:key/voice`, multipart) that goes through the engine as a voice note, so a
 * transcribing plugin can hear it; and a reply that an outbound transformer gave a voice note (the
 * voice plugin's "Respuestas de voz") comes back inline as a `data:audio/ogg;base64,…` address the
 * widget and the IALanding play. Nothing is stored on disk: the recording travels with the inbound
 * message (`attachments[0].data`) for the length of the request.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../engine/errors.ts';
import { readSingleFileForm } from '../../engine/http/multipart.ts';
import type { ChannelContext, InboundMessage, TurnResult } from '../../engine/registry/index.ts';

/** Largest recording taken, bytes (10 MB, the attached files' limit). */
export const MAX_WEB_RECORDING_BYTES = 10 * 1024 * 1024;

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
 * Reads the multipart upload: the fields and one recording. `gate` runs with the fields before the
 * recording's bytes are read (the form sends them first), so a refused visitor costs no upload.
 * @throws AppError BAD_REQUEST without a visitor id or a recording; PAYLOAD_TOO_LARGE over 10 MB.
 */
export async function readVoiceUpload(
  req: FastifyRequest,
  gate?: (fields: z.infer<typeof WebVoiceFields>) => Promise<void>,
): Promise<{ fields: z.infer<typeof WebVoiceFields>; audio: Buffer; mime: string | null }> {
  const parse = (raw: Record<string, string>) => {
    const fields = WebVoiceFields.safeParse(raw);
    if (!fields.success) throw new AppError('BAD_REQUEST', 'Falta el identificador del visitante.');
    return fields.data;
  };
  const { fields: raw, file } = await readSingleFileForm(req, {
    maxBytes: MAX_WEB_RECORDING_BYTES,
    tooLarge: () => 'La grabación supera los 10 MB.',
    notMultipart: 'Envía el audio como multipart/form-data.',
    maxFields: 5,
    ...(gate ? { beforeFile: (fields: Record<string, string>) => gate(parse(fields)) } : {}),
  });
  const audio = file?.data;
  const mime = file?.mime ?? null;
  const fields = parse(raw);
  if (!audio?.length) throw new AppError('BAD_REQUEST', 'Falta el audio.');
  return { fields, audio, mime };
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
