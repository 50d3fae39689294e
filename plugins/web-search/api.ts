/** The web search plugin's browser-safe contract (issue 15 §4): what /configure reads. */
import { z } from 'zod';

/** `GET /api/web-search/status`. */
export const WebSearchStatus = z.object({
  available: z.boolean(),
  /** Why it is off (`notConfigured`), for the dashboard's text. */
  reason: z.enum(['notConfigured']).nullable(),
});
