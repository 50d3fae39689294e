/** The voice plugin's browser-safe contract (issue 15 §4): what /configure reads. */
import { z } from 'zod';

/** `GET /api/voice/status`. */
export const VoiceStatus = z.object({
  /** Voice notes are transcribed. */
  hearing: z.boolean(),
  /** Replies can be spoken. */
  speaking: z.boolean(),
  /** The voices the owner can pick (empty without a speech server). */
  voices: z.array(z.string()),
});
