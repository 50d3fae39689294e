/**
 * The owner's WhatsApp routes' contract (spec 000 §7; issue 13): the zod schemas of their bodies and
 * answers, shared by the routes (routes.ts) and the dashboard (browser-safe: zod only).
 */
import { z } from 'zod';
import { BotRef, ErrorBody, Health } from '../shared/channel-api.ts';

export { ErrorBody, Health };

/** The permissions the Facebook login asks for (spec 000 §3). */
export const META_SCOPE = 'whatsapp_business_management,business_management,pages_show_list';

/** `GET /api/get-whatsapp-config`'s answer. */
export const WhatsAppConfigResponse = z.object({
  /** Spec 000 §7: the connected number (digits), or null. */
  whatsapp_number: z.string().nullable(),
  backend: z.enum(['baileys', 'cloud']).nullable(),
  status: z.enum(['linking', 'linked', 'expired', 'logged_out', 'active']).nullable(),
  /**
   * Issue 28 §3: why a linking ended (`status` `expired`): `qrExpired` when QR codes were shown
   * and ran out unscanned, `network` when WhatsApp could not be reached (a network error or a
   * socket closed before the scan); null otherwise. Either way the owner retries the linking.
   */
  linkFailure: z.enum(['network', 'qrExpired']).nullable(),
  /** True when a number is connected (linked device paired, or Cloud API number active). */
  connected: z.boolean(),
  /** While linking: the QR code's content and expiry (ISO), and the pairing code when asked. */
  linking: z
    .object({
      qr: z.string().nullable(),
      qrExpiresAt: z.string().nullable(),
      pairingCode: z.string().nullable(),
    })
    .nullable(),
  cloud: z
    .object({
      phoneNumberId: z.string().nullable(),
      businessAccountId: z.string().nullable(),
      phoneNumber: z.string().nullable(),
      metaVerified: z.boolean(),
    })
    .nullable(),
  /** The Facebook login flow: the Meta app id (null when not configured), Graph version, permissions. */
  meta: z.object({ appId: z.string().nullable(), graphVersion: z.string(), scope: z.string() }),
  /** Where Meta must send this instance's webhooks, and the verify token to enter there. */
  webhook: z.object({ url: z.string().nullable(), verifyToken: z.string() }),
  /** True when the instance has an app secret for webhooks (else the manual form asks for one). */
  appSecretConfigured: z.boolean(),
  health: Health,
});
export type WhatsAppConfigResponse = z.infer<typeof WhatsAppConfigResponse>;

/** The bot a request is about (adapters/shared/channel-api.ts `BotRef`). */
export const BotBody = BotRef;

/** Body of `POST /api/request-whatsapp-number` (spec 000 §7; `phoneNumber` asks for a pairing code). */
export const RequestNumberBody = BotBody.extend({ phoneNumber: z.string().max(30).optional() });

/** Body of `POST /api/connect-whatsapp-cloud`. */
export const ConnectCloudBody = BotBody.extend({
  phoneNumberId: z.string().max(64).default(''),
  businessAccountId: z.string().max(64).default(''),
  accessToken: z.string().max(1024).default(''),
  appSecret: z.string().max(200).optional(),
  /** True for a Facebook login token (short-lived): exchanged for a long-lived one. */
  fromFacebookLogin: z.boolean().optional(),
});

/**
 * `GET /api/whatsapp-cloud-setup`'s answer (issue 28 §3): what the owner pastes in their Meta app's
 * webhook settings, and whether Meta can reach it at all.
 */
export const CloudSetupResponse = z.object({
  /** The exact callback URL (`<public address>/channels/whatsapp`). */
  webhookUrl: z.string(),
  /** The verify token Meta sends back as `hub.verify_token`. */
  verifyToken: z.string(),
  /** False when the address is local, private or not https: Meta would never deliver a message. */
  publicUrlReachable: z.boolean(),
  /** Why it is not reachable (`private` host or `notHttps`), or null. */
  problem: z.enum(['private', 'notHttps']).nullable(),
  /** The owner-facing warning in the request's language, or null (never an environment variable name). */
  warning: z.string().nullable(),
});
export type CloudSetupResponse = z.infer<typeof CloudSetupResponse>;
