/**
 * The voice effects' browser-safe contract (spec 001 §8 Broadcast and voice): the error texts the
 * routes answer and the dashboard recognises to show them in the owner's language, and the preset
 * ids (presets.ts) other plugins accept (broadcasts, conversations; issue 25 §5).
 */

import type { FastifyRequest } from 'fastify';
import type { Preset } from './presets.ts';

export { PRESETS, type Preset } from './presets.ts';

/**
 * The effects as a service other plugins receive (audio-effects/index.ts `audioEffectsService`,
 * handed over by plugins/index.ts): the plugins that send an owner's recording (broadcasts, the
 * conversations' owner reply) reach the effects only through it (issue 25 §5).
 */
export interface RecordingEffects {
  /** Applies a voice effect; OGG/Opus bytes; throws when the recording cannot be processed. */
  apply(recording: Buffer, preset: Preset): Promise<Buffer>;
  /** Reads a multipart request's text fields and its one recording (at most 10 MB, else 413). */
  readRecordingForm(
    req: FastifyRequest,
  ): Promise<{ fields: Record<string, string>; recording: Buffer | undefined }>;
}

/** A recording the effect cannot process (`POST /api/apply-audio-effect`). */
export const PROCESSING_ERROR = 'Error procesando el audio';
/** A voice note that cannot be sent (to one follower or as a broadcast). */
export const VOICE_SEND_ERROR = 'Error al enviar el audio.';
