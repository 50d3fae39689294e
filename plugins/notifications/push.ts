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
import type { z } from 'zod';
import { PushSubscriptionJson, privateHost } from '../../engine/net.ts';
import type { PluginContext } from '../../engine/registry/index.ts';
import { pushToSubscriptions, type Vapid, vapidOf, WebPushEnv } from '../../engine/web-push.ts';
import type { NotificationsDb } from './queries.ts';

/** The plugin's settings from the environment: the operator's Web Push settings (engine/web-push.ts). */
export const NotificationsEnv = WebPushEnv;
/** See {@link NotificationsEnv}. */
export type NotificationsEnv = WebPushEnv;

export { type Vapid, vapidOf };

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

/**
 * Sends one payload to each of the owner's subscriptions (engine/web-push.ts): a 404/410 deletes
 * that subscription; any other failure is thrown after trying every subscription (the route job
 * retries).
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
  return pushToSubscriptions(
    { secrets: ctx.secrets, log: ctx.log, vapid, forget: (endpoint) => deleteSubscription(db, endpoint) },
    rows,
    payload,
  );
}
