/**
 * The broadcasts API's contract (issue 14 §3, issue 27 §5; spec 001 §5 Broadcast, §7
 * telegram-broadcast, §8): zod schemas shared by the routes and the dashboard. Browser-safe.
 */
import { z } from 'zod';

/** Spec 001 §5: a broadcast needs a text or a file. */
export const NOTHING_TO_SEND = 'Escribe un texto o selecciona un archivo';

/**
 * The audiences a broadcast is counted and reported by (issue 27 §5): Telegram; WhatsApp through a
 * linked number (Baileys); the web widget and IALanding together (`web`); WhatsApp Cloud API
 * numbers, which take only approved templates outside the 24-hour window (issue 28), so they are
 * shown and never sent to yet.
 */
export const AUDIENCES = ['telegram', 'whatsapp', 'web', 'whatsappCloud'] as const;
export type Audience = (typeof AUDIENCES)[number];

/**
 * Audiences a broadcast is always sent to (issue 27 §5); `whatsappCloud` only when the broadcast
 * template is approved (issue 28 §1), otherwise its followers are counted and skipped.
 */
export const SENDABLE_AUDIENCES: readonly Audience[] = ['telegram', 'whatsapp', 'web'];

/**
 * Meta's name of Charla's MARKETING broadcast template (adapters/whatsapp/cloud/templates.ts
 * `TEMPLATE_NAMES.broadcast`): Cloud API followers get a broadcast as this template, its one
 * parameter the owner's text (issue 28 §1).
 */
export const BROADCAST_TEMPLATE_NAME = 'charla_broadcast';

/**
 * Why a recipient was skipped: `template`, a WhatsApp Cloud follower while the broadcast template
 * is not approved (issue 28); `blocked`, a follower who blocked the bot and has not written since;
 * `optedOut`, a follower who wrote STOP / BAJA (issue 28 §1).
 */
export const SKIP_REASONS = ['template', 'blocked', 'optedOut'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** One audience before sending: followers who get it (`count`) and who are left out (`leftOut`). */
export const AudienceCount = z.object({
  audience: z.enum(AUDIENCES),
  /** Followers on this audience the broadcast goes to (0 for one that is not sent to yet). */
  count: z.number().int(),
  /** Followers on this audience it skips: blocked the bot, or (whatsappCloud) every one of them. */
  leftOut: z.number().int(),
  /**
   * Whether a broadcast reaches this audience now (`whatsappCloud`: only with the broadcast
   * template approved, sent as a MARKETING template Meta bills per message, issue 28 §1).
   */
  sendable: z.boolean(),
  /** Why `leftOut` followers are skipped, when they all are for one reason. */
  reason: z.enum(SKIP_REASONS).nullable(),
});
export type AudienceCount = z.infer<typeof AudienceCount>;

/** `GET /api/broadcasts/:chatbotId/audience`: per audience, and how many a broadcast reaches now. */
export const AudienceAnswer = z.object({
  audiences: z.array(AudienceCount),
  /** Followers a broadcast sent now would go to (sum of `count`); 0 is refused. */
  reachable: z.number().int(),
});
export type AudienceAnswer = z.infer<typeof AudienceAnswer>;

/**
 * Why recipients failed: `notConnected`, the bot's channel was not connected (Telegram, WhatsApp);
 * `interrupted`, the process stopped while sending to them and whether it arrived is unknown;
 * `channel`, the channel refused the message (its words are kept for the owner's export).
 */
export const FAILURE_REASONS = ['notConnected', 'interrupted', 'channel'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** One audience's part of a broadcast: recipients by state. */
export const BroadcastChannel = z.object({
  audience: z.enum(AUDIENCES),
  total: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  blocked: z.number().int(),
  remaining: z.number().int(),
  /** Recipients not sent to, by reason. */
  skipped: z.array(z.object({ reason: z.enum(SKIP_REASONS), count: z.number().int() })),
  /** The failed ones (`failed`) by reason. */
  failures: z.array(z.object({ reason: z.enum(FAILURE_REASONS), count: z.number().int() })),
});
export type BroadcastChannel = z.infer<typeof BroadcastChannel>;

/** One broadcast with its progress (counts over the audiences it is sent to; skipped apart). */
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
  /** Recipients counted and not sent to (WhatsApp Cloud, blocked), issue 27 §5. */
  skipped: z.number().int(),
  /** The same counts per audience, in {@link AUDIENCES} order, only those with recipients. */
  channels: z.array(BroadcastChannel),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type BroadcastRow = z.infer<typeof BroadcastRow>;

export const BroadcastsAnswer = z.object({ broadcasts: z.array(BroadcastRow) });
export type BroadcastsAnswer = z.infer<typeof BroadcastsAnswer>;

/** The `code` of the 400 answered when a broadcast would reach nobody (issue 27 §5). */
export const NO_AUDIENCE_CODE = 'noAudience';
