/**
 * Web Push to the owner's browsers (issue 27 §1: "Web Push (VAPID, a standard library) when the
 * operator sets keys"), with the `web-push` package: it encrypts the payload for the browser's
 * subscription (RFC 8291) and signs the VAPID `Authorization` header (RFC 8292); the request is
 * sent with fetch. A push service answering 404 or 410 says the subscription is gone: it is
 * deleted. Subscriptions are stored sealed (engine/secrets.ts): the endpoint is a capability URL
 * and the keys decrypt what is sent to it; rows are found by the endpoint's SHA-256.
 *
 * The operator's settings (the plugin's `envSchema`, README): `CHARLA_VAPID_PUBLIC_KEY`,
 * `CHARLA_VAPID_PRIVATE_KEY` (URL-safe base64, `npx web-push generate-vapid-keys`) and
 * `CHARLA_VAPID_SUBJECT` (`mailto:` or `https:` contact of the operator). Without both keys the
 * push route is off (`pushAvailable: false`).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { PushSubscriptionJson, privateHost } from '../../engine/net.ts';
import type { PluginContext } from '../../engine/registry/index.ts';
import type { NotificationsDb } from './queries.ts';

const optional = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

/** The plugin's settings from the environment (see the module comment). */
export const NotificationsEnv = z.object({
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
   * own network; tests). Off by default: an owner cannot make the server post to its own network
   * (as Mastodon's `ALLOWED_PRIVATE_ADDRESSES`).
   */
  CHARLA_PUSH_ALLOW_PRIVATE: z.enum(['on', 'off']).default('off'),
});
/** See {@link NotificationsEnv}. */
export type NotificationsEnv = z.infer<typeof NotificationsEnv>;

/** The VAPID details when both keys are set, else null (push off). */
export function vapidOf(env: NotificationsEnv | undefined) {
  if (!env?.CHARLA_VAPID_PUBLIC_KEY || !env.CHARLA_VAPID_PRIVATE_KEY) return null;
  return {
    subject: env.CHARLA_VAPID_SUBJECT ?? 'mailto:charla@localhost',
    publicKey: env.CHARLA_VAPID_PUBLIC_KEY,
    privateKey: env.CHARLA_VAPID_PRIVATE_KEY,
    /** Endpoints on private addresses allowed (`CHARLA_PUSH_ALLOW_PRIVATE=on`). */
    allowPrivate: env.CHARLA_PUSH_ALLOW_PRIVATE === 'on',
  };
}
/** See {@link vapidOf}. */
export type Vapid = NonNullable<ReturnType<typeof vapidOf>>;

/** A browser's PushSubscription as `JSON.stringify` gives it (the parts Web Push needs). */
export const PushSubscriptionBody = PushSubscriptionJson;
/** See {@link PushSubscriptionBody}. */
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>;

/** What a push carries (the dashboard's service worker shows it): JSON `{ title, body, url, tag }`. */
export interface PushPayload {
  title: string;
  body: string;
  /** The dashboard page to open on a click. */
  url: string;
  /** Same tag: the browser replaces the earlier notification instead of stacking. */
  tag: string;
}

const hash = (endpoint: string) => createHash('sha256').update(endpoint).digest('hex');

/** Stores (or renews) a subscription for the owner; a subscription moves to whoever saves it last. */
export async function saveSubscription(
  ctx: Pick<PluginContext, 'secrets' | 'now'>,
  db: NotificationsDb,
  ownerId: string,
  s: PushSubscriptionBody,
): Promise<void> {
  const row = {
    owner_id: ownerId,
    endpoint_sealed: ctx.secrets.encrypt(s.endpoint),
    keys_sealed: ctx.secrets.encrypt(JSON.stringify(s.keys)),
    created_at: ctx.now(),
  };
  await db
    .insertInto('notification_push_subscriptions')
    .values({ endpoint_hash: hash(s.endpoint), ...row })
    .onConflict((oc) => oc.column('endpoint_hash').doUpdateSet(row))
    .execute();
}

/** Deletes a subscription (of this owner only, when `ownerId` is given). @returns whether one went. */
export async function deleteSubscription(
  db: NotificationsDb,
  endpoint: string,
  ownerId?: string,
): Promise<boolean> {
  let q = db.deleteFrom('notification_push_subscriptions').where('endpoint_hash', '=', hash(endpoint));
  if (ownerId) q = q.where('owner_id', '=', ownerId);
  const r = await q.executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** See engine/net.ts (shared with the IALanding visitors' push, adapters/web/visitor-push.ts). */
export { privateHost };

/** Time a push waits at the push service for an offline browser, s (a day). */
const TTL_S = 86_400;

/**
 * Sends one payload to each of the owner's subscriptions. A 404/410 deletes that subscription;
 * any other failure is thrown after trying every subscription (the route job retries).
 * @returns how many push services accepted it.
 */
export async function pushToOwner(
  ctx: Pick<PluginContext, 'secrets' | 'log'>,
  db: NotificationsDb,
  vapid: Vapid,
  ownerId: string,
  payload: PushPayload,
): Promise<number> {
  const rows = await db
    .selectFrom('notification_push_subscriptions')
    .select(['endpoint_sealed', 'keys_sealed'])
    .where('owner_id', '=', ownerId)
    .execute();
  if (rows.length === 0) return 0;
  // Loaded at the first push, not at start-up (cold start, like nodemailer).
  const webpush = (await import('web-push')).default;
  let sent = 0;
  let failure: Error | null = null;
  for (const row of rows) {
    let endpoint: string;
    let keys: { p256dh: string; auth: string };
    try {
      endpoint = ctx.secrets.decrypt(row.endpoint_sealed);
      keys = JSON.parse(ctx.secrets.decrypt(row.keys_sealed)) as typeof keys;
    } catch (err) {
      ctx.log.warn({ err }, 'push subscription unreadable (the instance secret changed?)');
      continue;
    }
    if (!vapid.allowPrivate && (await privateHost(endpoint))) {
      // Not a browser's push service: never posted to (the server's own network stays closed).
      await deleteSubscription(db, endpoint);
      ctx.log.warn('push subscription on a private address: deleted');
      continue;
    }
    const { subject, publicKey, privateKey } = vapid;
    const req = webpush.generateRequestDetails({ endpoint, keys }, JSON.stringify(payload), {
      vapidDetails: { subject, publicKey, privateKey },
      TTL: TTL_S,
      urgency: 'high',
      contentEncoding: 'aes128gcm',
    });
    try {
      const res = await fetch(req.endpoint, {
        method: 'POST',
        headers: req.headers as Record<string, string>,
        body: req.body,
        signal: AbortSignal.timeout(15_000),
        redirect: 'error',
      });
      await res.body?.cancel();
      if (res.status === 404 || res.status === 410) {
        await deleteSubscription(db, endpoint);
        ctx.log.info({ status: res.status }, 'push subscription gone: deleted');
      } else if (res.ok) sent++;
      else failure = new Error(`push service answered ${res.status}`);
    } catch (err) {
      failure = err instanceof Error ? err : new Error(String(err));
    }
  }
  if (failure && sent === 0) throw failure;
  if (failure) ctx.log.warn({ err: failure }, 'a push service failed; the others got it');
  return sent;
}
