/**
 * The WhatsApp channel's settings from the environment (README: configuration): the adapter's
 * `envSchema`, parsed by the registry's one parser before it starts (ctx.settings). Every one has a default, so WhatsApp works with none set: linked devices
 * need nothing, and the Cloud API needs only what each owner enters (or META_APP_ID for the
 * Facebook login flow).
 */
import { z } from 'zod';

const optional = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));

export const WhatsAppSettings = z.object({
  /** Meta app id: enables the "Continuar con Facebook" flow (spec 000 §4, Meta connection). */
  META_APP_ID: optional,
  /** Meta app secret: checks `X-Hub-Signature-256` on Cloud API webhooks (numbers may carry their own). */
  META_APP_SECRET: optional,
  /** The webhook verify token (Meta's `hub.verify_token`); derived from CHARLA_SECRET when unset. */
  WHATSAPP_VERIFY_TOKEN: optional,
  /**
   * Graph API version of every Cloud API call (the spec's v17.0 is retired). v27.0 is the newest in
   * Meta's Graph API changelog (introduced 4 November 2026; issue 28 §3); Charla's calls use none of
   * the legacy features v27.0 restricts (multi-id requests, field aliases, method override…).
   */
  WHATSAPP_GRAPH_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/, 'a Graph API version such as v27.0')
    .default('v27.0'),
  /** Graph API root (a local wire-format server in tests). */
  WHATSAPP_GRAPH_URL: z
    .string()
    .url()
    .default('https://graph.facebook.com')
    .transform((u) => u.replace(/\/+$/, '')),
  /** Linked devices: least time between two messages the bot sends from one number, ms (pacing). */
  WHATSAPP_SEND_INTERVAL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** Linked devices: how long a process's hold on a session lasts without renewal, ms. */
  WHATSAPP_LEASE_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /** Linked devices: longest wait between reconnection attempts, ms. */
  WHATSAPP_RECONNECT_MAX_MS: z.coerce.number().int().min(100).max(3_600_000).default(300_000),
});
export type WhatsAppSettings = z.infer<typeof WhatsAppSettings>;
