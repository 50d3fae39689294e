/**
 * Web Push to IALanding visitors (issue 28 §2: "browser web push (VAPID keys set by the operator, a
 * standard library, permission asked only after the visitor engages) as a second route where
 * configured"). A visitor who wrote on the IALanding (Charla's own origin, whose service worker
 * /sw.js shows `push` payloads) may subscribe their browser; an owner's reply or a reminder pushed
 * to them is then also sent as a Web Push through a durable job ({@link visitorPushJob}), so a
 * push service's outage delays it and does not drop it; 404/410 deletes the subscription.
 *
 * The embeddable widget on third-party sites cannot register a service worker of Charla's origin:
 * its visitors are reached by e-mail instead (plugins/reservations/reply-mails.ts).
 *
 * Uses the `web-push` package (RFC 8291 encryption, RFC 8292 VAPID) with the operator's
 * `CHARLA_VAPID_PUBLIC_KEY` / `CHARLA_VAPID_PRIVATE_KEY` / `CHARLA_VAPID_SUBJECT` (the same keys as the
 * owners' push, plugins/notifications) and `CHARLA_PUSH_ALLOW_PRIVATE=on` to allow endpoints on
 * private addresses. Subscriptions are stored sealed (engine/secrets.ts) in
 * `web_visitor_push_subscriptions` (migration 202611281200_visitor_push), found by the endpoint's SHA-256.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { defineJob } from '../../engine/jobs/index.ts';
import { PushSubscriptionJson } from '../../engine/net.ts';
import {
  type ChannelContext,
  type OutboundMessage,
  pluginJob,
  type SendContext,
} from '../../engine/registry/index.ts';
import { pushToSubscriptions, vapidOf } from '../../engine/web-push.ts';

/** The VAPID details when both keys are set, else null (visitor push off): engine/web-push.ts. */
export function visitorVapid(env: Readonly<Record<string, string | undefined>>) {
  return vapidOf(env);
}

/** A row of `web_visitor_push_subscriptions`. */
interface VisitorPushTable {
  endpoint_hash: string;
  chatbot_id: string;
  visitor_id: string;
  endpoint_sealed: string;
  keys_sealed: string;
  created_at: Date;
}
type VisitorPushDb = Kysely<{
  web_visitor_push_subscriptions: VisitorPushTable;
  ialandings: { chatbot_id: string; slug: string; is_active: boolean };
}>;
const pushDb = (ctx: ChannelContext) => ctx.db as unknown as VisitorPushDb;

/** SHA-256 (hex) of an endpoint: the row's key. */
const hash = (endpoint: string) => createHash('sha256').update(endpoint).digest('hex');

/** A browser's PushSubscription (`JSON.stringify` of it) with the visitor id of the IALanding. */
export const VisitorSubscriptionBody = PushSubscriptionJson.extend({
  /** The browser's visitor id for this key (the same the chat sends). */
  visitorId: z.string().min(1).max(128),
}).strip();
/** See {@link VisitorSubscriptionBody}. */
export type VisitorSubscriptionBody = z.infer<typeof VisitorSubscriptionBody>;

/** Stores (or renews) a visitor's subscription; a subscription moves to whoever saves it last. */
export async function saveVisitorSubscription(
  ctx: ChannelContext,
  chatbotId: string,
  s: VisitorSubscriptionBody,
): Promise<void> {
  const row = {
    chatbot_id: chatbotId,
    visitor_id: s.visitorId,
    endpoint_sealed: ctx.secrets.encrypt(s.endpoint),
    keys_sealed: ctx.secrets.encrypt(JSON.stringify(s.keys)),
    created_at: ctx.now(),
  };
  await pushDb(ctx)
    .insertInto('web_visitor_push_subscriptions')
    .values({ endpoint_hash: hash(s.endpoint), ...row })
    .onConflict((oc) => oc.column('endpoint_hash').doUpdateSet(row))
    .execute();
}

/** Deletes a subscription (of this bot only, when `chatbotId` is given). @returns whether one went. */
export async function deleteVisitorSubscription(
  ctx: ChannelContext,
  endpoint: string,
  chatbotId?: string,
): Promise<boolean> {
  let q = pushDb(ctx)
    .deleteFrom('web_visitor_push_subscriptions')
    .where('endpoint_hash', '=', hash(endpoint));
  if (chatbotId) q = q.where('chatbot_id', '=', chatbotId);
  const r = await q.executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** What a visitor's push carries (the service worker /sw.js shows it): `{ title, body, url, tag }`. */
const VisitorPushPayload = z.object({
  /** The business's name. */
  title: z.string(),
  /** The message's text, at most {@link MAX_BODY} characters. */
  body: z.string(),
  /** The IALanding's address, `/ialanding/<slug>`. */
  url: z.string(),
  /** One per bot: a newer message replaces the earlier notification. */
  tag: z.string(),
});

/** A message for one visitor's browsers. */
export const visitorPushJob = defineJob({
  name: 'web.visitor-push',
  data: z.object({ chatbotId: z.string(), visitorId: z.string(), payload: VisitorPushPayload }),
  retryDelaySeconds: 30,
  retryLimit: 8,
  leaseSeconds: 60,
  concurrency: 20,
});

/** Longest body of a visitor's push, characters. */
const MAX_BODY = 200;

/**
 * Queues the Web Push of a message sent to a web visitor outside a request (`to.sender` set: an
 * owner's reply, a reminder) when push is configured, the visitor subscribed on the IALanding and
 * the bot has an active IALanding. Nothing for a turn's reply (the visitor is on the page).
 */
export async function queueVisitorPush(
  ctx: ChannelContext,
  chatbotId: string,
  visitorId: string,
  message: OutboundMessage,
  to: SendContext | undefined,
): Promise<void> {
  if (!to?.sender || to.inbound || !visitorVapid(ctx.env)) return;
  const db = pushDb(ctx);
  const subscribed = await db
    .selectFrom('web_visitor_push_subscriptions')
    .select('endpoint_hash')
    .where('chatbot_id', '=', chatbotId)
    .where('visitor_id', '=', visitorId)
    .executeTakeFirst();
  if (!subscribed) return;
  const landing = await db
    .selectFrom('ialandings')
    .select('slug')
    .where('chatbot_id', '=', chatbotId)
    .where('is_active', '=', true)
    .executeTakeFirst();
  if (!landing) return;
  const text = (message.text ?? '').trim() || '…';
  const body = text.length > MAX_BODY ? `${text.slice(0, MAX_BODY - 1)}…` : text;
  await ctx.jobs.send(visitorPushJob, {
    chatbotId,
    visitorId,
    payload: {
      title: to.bot.business_name,
      body,
      url: `/ialanding/${encodeURIComponent(landing.slug)}`,
      tag: `charla-${chatbotId}`,
    },
  });
}

/**
 * The job's handler: posts the payload to each of the visitor's subscriptions. 404/410 deletes
 * that subscription; an endpoint on a private address (without `CHARLA_PUSH_ALLOW_PRIVATE=on`) is
 * deleted without a post; any other failure is thrown after trying every subscription, so the job
 * retries, unless one push service accepted it.
 */
export function visitorPushJobs(need: () => ChannelContext) {
  return [
    pluginJob(visitorPushJob, async (job) => {
      const ctx = need();
      const vapid = visitorVapid(ctx.env);
      if (!vapid) return;
      const rows = await pushDb(ctx)
        .selectFrom('web_visitor_push_subscriptions')
        .select(['endpoint_sealed', 'keys_sealed'])
        .where('chatbot_id', '=', job.data.chatbotId)
        .where('visitor_id', '=', job.data.visitorId)
        .execute();
      if (rows.length === 0) return;
      await pushToSubscriptions(
        {
          secrets: ctx.secrets,
          log: ctx.log,
          vapid,
          forget: (endpoint) => deleteVisitorSubscription(ctx, endpoint),
          signal: job.signal,
        },
        rows,
        job.data.payload,
      );
    }),
  ];
}
