/**
 * The voice effects' browser-safe contract (spec 001 §8 Broadcast and voice): the error texts the
 * routes answer and the dashboard recognises to show them in the owner's language.
 */

/** A recording the effect cannot process (`POST /api/apply-audio-effect`). */
export const PROCESSING_ERROR = 'Error procesando el audio';
/** A voice note that cannot be sent (to one follower or as a broadcast). */
export const VOICE_SEND_ERROR = 'Error al enviar el audio.';
