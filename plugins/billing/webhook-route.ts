/**
 * `POST /api/stripe/webhook` (issue 11; public): Stripe's events, the signature checked on the raw
 * body, each event's envelope checked before it is applied (webhook.ts), and the owner's channels
 * brought back after a payment.
 */
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { PluginContext } from '../../engine/registry/index.ts';
import { billingDb } from './queries.ts';
import type { BillingRouteDeps } from './stripe.ts';
import { BILLING_ERRORS } from './texts.ts';
import { applyEvent } from './webhook.ts';

/** How far a Stripe signature's time may be from now, seconds (Stripe's default tolerance, 5 min). */
export const STRIPE_TOLERANCE_S = 300;

/**
 * `POST /api/stripe/webhook` in its own encapsulated scope, where `application/json` is kept as
 * raw bytes: the signature covers the exact body Stripe sent (https://docs.stripe.com/webhooks#verify-events).
 */
export function webhookRoute({ ctx, env, stripe }: BillingRouteDeps): FastifyPluginAsync {
  const db = billingDb(ctx.db);
  return async (app) => {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
      done(null, body),
    );
    app.post(
      '/api/stripe/webhook',
      {
        config: { public: true },
        schema: {
          summary: 'Stripe’s webhook',
          description:
            'Issue 11: events signed with STRIPE_WEBHOOK_SECRET (`Stripe-Signature` over the raw body; 400 and ' +
            'nothing stored when it does not match, or was signed more than 5 minutes before or after now). Acts on checkout.session.completed, ' +
            'checkout.session.async_payment_succeeded/failed, invoice.paid, customer.subscription.updated/deleted; ' +
            'each event id once, each payment’s days once. 503 when the secret is not configured.',
          tags: ['billing'],
        },
      },
      async (req, reply) => {
        if (!env.STRIPE_WEBHOOK_SECRET || !stripe)
          return reply.code(503).send({ error: BILLING_ERRORS.webhookOff });
        const signature = req.headers['stripe-signature'];
        const raw = req.body;
        if (typeof signature !== 'string' || !Buffer.isBuffer(raw))
          return reply.code(400).send({ error: BILLING_ERRORS.badSignature });
        let event: { id: string; type: string; created: number; data: { object: unknown } };
        const nowS = Math.floor(ctx.now().getTime() / 1000);
        // Stripe's SDK refuses signatures older than its tolerance (5 min) but not ones from the
        // future; a captured event re-signed ahead of time must not be replayable later (issue 24 §8).
        const signedAt = Number(/(?:^|,)\s*t=(\d+)/.exec(signature)?.[1] ?? Number.NaN);
        if (signedAt > nowS + STRIPE_TOLERANCE_S) {
          ctx.log.warn({ signedAt, now: nowS }, 'Stripe webhook signed in the future refused');
          return reply.code(400).send({ error: BILLING_ERRORS.badSignature });
        }
        try {
          event = stripe.webhooks.constructEvent(
            raw,
            signature,
            env.STRIPE_WEBHOOK_SECRET,
            STRIPE_TOLERANCE_S,
            undefined,
            nowS,
          );
        } catch (err) {
          ctx.log.warn({ err: (err as Error).message }, 'Stripe webhook with a bad signature refused');
          return reply.code(400).send({ error: BILLING_ERRORS.badSignature });
        }
        // A signed event that is not an event Charla can read (another API version, a hand-made
        // one: `true`, no `created`, an object of another shape) is 400 with nothing stored, not a
        // 500 (issue 24 §7, found by the fuzz check). Stripe shows the failure and retries.
        if (!StripeEventEnvelope.safeParse(event).success) {
          ctx.log.warn(
            { event: (event as { id?: unknown })?.id },
            'Stripe event of an unexpected shape refused',
          );
          return reply.code(400).send({ error: BILLING_ERRORS.badEvent });
        }
        let outcome: Awaited<ReturnType<typeof applyEvent>>;
        try {
          outcome = await applyEvent(db, event, { now: ctx.now(), log: ctx.log });
        } catch (err) {
          if (!(err instanceof z.ZodError)) throw err;
          ctx.log.warn(
            { event: event.id, type: event.type, issues: err.issues.slice(0, 3) },
            'Stripe event of an unexpected shape refused',
          );
          return reply.code(400).send({ error: BILLING_ERRORS.badEvent });
        }
        ctx.log.info({ event: event.id, type: event.type, outcome: outcome.outcome }, 'Stripe event');
        // Not awaited: Stripe's delivery does not wait on Telegram; the owner's bots connect right after.
        if (outcome.granted) void reconcile(ctx, outcome.granted.userId);
        return { received: true, duplicate: outcome.duplicate };
      },
    );
  };
}

/** What the webhook reads of every Stripe event before acting on it (issue 24 §7). */
const StripeEventEnvelope = z.looseObject({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  created: z
    .number()
    .int()
    .nonnegative()
    .max(2 ** 40),
  data: z.looseObject({ object: z.looseObject({}) }),
});

/** Brings the owner's paused channels back now (the supervisor would within its interval anyway). */
export async function reconcile(ctx: PluginContext, userId: string): Promise<void> {
  try {
    await ctx.reconcileOwner(userId);
  } catch (err) {
    ctx.log.error({ err, owner: userId }, 'reconnecting the owner’s channels failed; the supervisor retries');
  }
}
