/**
 * Web Push (RFC 8030) from this server, one path for every sender: the owners' browsers
 * (plugins/notifications, issue 27 §1) and the IALanding visitors' (adapters/web/visitor-push.ts,
 * issue 28 §2). The `web-push` package encrypts the payload for the browser's subscription
 * (RFC 8291) and signs the VAPID `Authorization` header (RFC 8292); the request is sent with fetch.
 *
 * The operator's settings (README): `CHARLA_VAPID_PUBLIC_KEY`, `CHARLA_VAPID_PRIVATE_KEY` (URL-safe
 * base64, `npx web-push generate-vapid-keys`), `CHARLA_VAPID_SUBJECT` (`mailto:` or `https:`
 * contact of the operator) and `CHARLA_PUSH_ALLOW_PRIVATE=on` to allow endpoints on private
 * addresses. Without both keys push is off.
 */
import { z } from 'zod';
import type { Logger } from './logger.ts';
import { privateHost } from './net.ts';

const optional = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

/** The operator's Web Push settings from the environment (see the module comment). */
export const WebPushEnv = z.object({
  /** VAPID public key (URL-safe base64 of the P-256 point, 87 characters). */
  CHARLA_VAPID_PUBLIC_KEY: optional,
  /** VAPID private key (URL-safe base64, 43 characters). */
  CHARLA_VAPID_PRIVATE_KEY: optional,
  /** The operator's contact for push services: `mailto:ops@example.com` or an https URL. */
  CHARLA_VAPID_SUBJECT: optional.refine((v) => v === undefined || /^(mailto:|https:\/\/)/.test(v), {
    message: 'must start with mailto: or https://',
  }),
  /**
   * `on`: push endpoints may be on private or loopback addresses (a push server on the operator's
   * own network; tests). Off by default: nobody can make the server post to its own network
   * (as Mastodon's `ALLOWED_PRIVATE_ADDRESSES`).
   */
  CHARLA_PUSH_ALLOW_PRIVATE: z.enum(['on', 'off']).default('off'),
});
/** See {@link WebPushEnv}. */
export type WebPushEnv = z.infer<typeof WebPushEnv>;

/** The VAPID details the push services see. */
export interface Vapid {
  subject: string;
  publicKey: string;
  privateKey: string;
  /** Endpoints on private addresses allowed (`CHARLA_PUSH_ALLOW_PRIVATE=on`). */
  allowPrivate: boolean;
}

/**
 * The VAPID details when both keys are set, else null (push off). Takes the parsed settings or the
 * raw environment (an unparseable one is push off).
 */
export function vapidOf(
  env: WebPushEnv | Readonly<Record<string, string | undefined>> | undefined,
): Vapid | null {
  const parsed = WebPushEnv.safeParse(env ?? {});
  if (!parsed.success) return null;
  const e = parsed.data;
  if (!e.CHARLA_VAPID_PUBLIC_KEY || !e.CHARLA_VAPID_PRIVATE_KEY) return null;
  return {
    subject: e.CHARLA_VAPID_SUBJECT ?? 'mailto:charla@localhost',
    publicKey: e.CHARLA_VAPID_PUBLIC_KEY,
    privateKey: e.CHARLA_VAPID_PRIVATE_KEY,
    allowPrivate: e.CHARLA_PUSH_ALLOW_PRIVATE === 'on',
  };
}

/** Time a push waits at the push service for an offline browser, s (a day). */
const TTL_S = 86_400;
/** Longest wait for a push service's answer, ms. */
const POST_TIMEOUT_MS = 15_000;

/** A stored subscription: endpoint and keys sealed with the instance secret (engine/secrets.ts). */
export interface SealedSubscription {
  endpoint_sealed: string;
  keys_sealed: string;
}

/** What {@link pushToSubscriptions} needs. */
export interface PushDelivery {
  secrets: { decrypt(sealed: string): string };
  log: Logger;
  vapid: Vapid;
  /** Deletes a subscription that is gone (404/410) or not a browser's (a private address). */
  forget: (endpoint: string) => Promise<unknown>;
  /** Cancels the posts (a stopping job). */
  signal?: AbortSignal;
}

/**
 * Posts one JSON payload to each subscription. A 404/410 deletes that subscription; an endpoint on
 * a private address (without `allowPrivate`) is deleted without a post; an unreadable row (the
 * instance secret changed) is skipped. Any other failure is thrown after trying every subscription,
 * unless one push service accepted it (then it is logged).
 * @returns how many push services accepted it.
 */
export async function pushToSubscriptions(
  deps: PushDelivery,
  rows: readonly SealedSubscription[],
  payload: unknown,
): Promise<number> {
  if (rows.length === 0) return 0;
  // Loaded at the first push, not at start-up (cold start, like nodemailer).
  const webpush = (await import('web-push')).default;
  const { subject, publicKey, privateKey } = deps.vapid;
  let sent = 0;
  let failure: Error | null = null;
  for (const row of rows) {
    let endpoint: string;
    let keys: { p256dh: string; auth: string };
    try {
      endpoint = deps.secrets.decrypt(row.endpoint_sealed);
      keys = JSON.parse(deps.secrets.decrypt(row.keys_sealed)) as typeof keys;
    } catch (err) {
      deps.log.warn({ err }, 'push subscription unreadable (the instance secret changed?)');
      continue;
    }
    if (!deps.vapid.allowPrivate && (await privateHost(endpoint))) {
      // Not a browser's push service: never posted to (the server's own network stays closed).
      await deps.forget(endpoint);
      deps.log.warn('push subscription on a private address: deleted');
      continue;
    }
    const req = webpush.generateRequestDetails({ endpoint, keys }, JSON.stringify(payload), {
      vapidDetails: { subject, publicKey, privateKey },
      TTL: TTL_S,
      urgency: 'high',
      contentEncoding: 'aes128gcm',
    });
    try {
      const timeout = AbortSignal.timeout(POST_TIMEOUT_MS);
      const res = await fetch(req.endpoint, {
        method: 'POST',
        headers: req.headers as Record<string, string>,
        body: req.body,
        signal: deps.signal ? AbortSignal.any([deps.signal, timeout]) : timeout,
        redirect: 'error',
      });
      await res.body?.cancel();
      if (res.status === 404 || res.status === 410) {
        await deps.forget(endpoint);
        deps.log.info({ status: res.status }, 'push subscription gone: deleted');
      } else if (res.ok) sent++;
      else failure = new Error(`push service answered ${res.status}`);
    } catch (err) {
      failure = err instanceof Error ? err : new Error(String(err));
    }
  }
  if (failure && sent === 0) throw failure;
  if (failure) deps.log.warn({ err: failure }, 'a push service failed; the others got it');
  return sent;
}
