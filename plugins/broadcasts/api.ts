/**
 * The broadcasts API's contract (issue 14 §3; spec 001 §5 Broadcast, §7 telegram-broadcast, §8):
 * zod schemas shared by the routes and the dashboard. Browser-safe.
 */
import { z } from 'zod';

/** Spec 001 §5: a broadcast needs a text or a file. */
export const NOTHING_TO_SEND = 'Escribe un texto o selecciona un archivo';

/** One broadcast with its progress. */
export const BroadcastRow = z.object({
  id: z.string(),
  text: z.string(),
  fileName: z.string().nullable(),
  voice: z.boolean(),
  preset: z.string().nullable(),
  status: z.enum(['sending', 'done']),
  total: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  blocked: z.number().int(),
  remaining: z.number().int(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type BroadcastRow = z.infer<typeof BroadcastRow>;

export const BroadcastsAnswer = z.object({ broadcasts: z.array(BroadcastRow) });
export type BroadcastsAnswer = z.infer<typeof BroadcastsAnswer>;
