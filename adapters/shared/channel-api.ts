/**
 * The wire contract the owner's channel routes share (spec 000 §7; issues 5, 13, 25 §2): the error
 * body, a connection's health, the `{ userId?, chatbotId? }` that names a bot, and the answer of a
 * disconnect. Browser-safe (zod only): the dashboard reads these shapes through
 * adapters/whatsapp/api.ts.
 */
import { z } from 'zod';

/** An error answer: `{ error }` with the spec's Spanish text (engine/errors.ts AppError). */
export const ErrorBody = z.object({ error: z.string() });

/** A connection's health as the dashboard shows it (engine/registry ConnectionHealth). */
export const Health = z.object({
  mode: z.string(),
  state: z.enum(['connected', 'error', 'paused', 'disconnected']),
  /** The server's own text (Spanish or the provider's words): for API clients; the dashboard never shows it. */
  lastError: z.string().nullable(),
  /** Issue 29: the last error as a code the dashboard translates (adapters/shared/channel-errors.ts). */
  lastErrorCode: z.string().nullable().optional(),
  /** The code's parameters (a chat number, a file name, an HTTP status). */
  lastErrorParams: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  lastErrorAt: z.string().nullable(),
  lastUpdateAt: z.string().nullable(),
  pendingUpdates: z.number().nullable(),
});

/**
 * The bot a request is about (spec 000 §7): `chatbotId` (at most 100 characters); `userId` is
 * accepted and ignored, the owner is the session's. A body or a query string.
 */
export const BotRef = z.object({ userId: z.string().optional(), chatbotId: z.string().max(100).optional() });

/** The answer of a channel's disconnect route (`POST /api/remove-telegram`, `/api/remove-whatsapp`). */
export const Removed = z.object({ success: z.literal(true), message: z.string() });

/**
 * The error answers of a route's schema: `{ [code]: ErrorBody }` for each HTTP status code given,
 * e.g. `{ 200: Answer, ...errorBodies(400, 401, 404) }`.
 */
export function errorBodies<const C extends readonly number[]>(
  ...codes: C
): { [K in C[number]]: typeof ErrorBody } {
  return Object.fromEntries(codes.map((code) => [code, ErrorBody])) as { [K in C[number]]: typeof ErrorBody };
}
