/**
 * Voice on the web channel (issue 15 §1, §2): the widget's microphone button sends a recording
 * (`POST /api/web/:key/voice`, multipart) that goes through the engine as a voice note, so a
 * transcribing plugin can hear it; and a reply that an outbound transformer gave a voice note (the
 * voice plugin's "Respuestas de voz") comes back inline as a `data:audio/ogg;base64,…` address the
 * widget and the IALanding play (turn-http.ts `runTurn`). Nothing is stored on disk: the recording travels with the inbound
 * message (`attachments[0].data`) for the length of the request.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../engine/errors.ts';
import { readSingleFileForm } from '../../engine/http/multipart.ts';

/** Largest recording taken, bytes (10 MB, the attached files' limit). */
export const MAX_WEB_RECORDING_BYTES = 10 * 1024 * 1024;

/**
 * Who sends a web-key turn (`POST /api/web/:key/message` and `/voice`): the visitor's id (the
 * widget's or the IALanding's, 1–128 letters, digits, `_` or `-`) and which web client sends it.
 */
export const WebVisitor = z.object({
  visitorId: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[\w-]+$/),
  /** Which web client sends it: the widget or the IALanding. */
  channel: z.enum(['web', 'ialanding']).default('web'),
});

/** The fields of `POST /api/web/:key/voice` besides the recording. */
export const WebVoiceFields = WebVisitor.extend({ messageId: z.string().max(200).optional() });

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
