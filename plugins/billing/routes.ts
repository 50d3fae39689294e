/**
 * Billing's HTTP routes (issue 11, spec 001 §7), at the spec's `/api/...` paths:
 * - `GET /api/billing` (owner): what /gestion shows: days, plan, subscription, history, whether
 *   payments are on.
 * - `POST /api/create-checkout-session` (owner) `{plan, customDays}`: a Stripe Checkout Session for
 *   the session's owner; answers `{url}`.
 * - `POST /api/cancel-subscription` (owner): cancels the owner's own renewal at period end.
 * - `POST /api/redeem-coupon` (owner, cookie or bearer) `{couponCode}`; rate-limited per owner and
 *   per address.
 * - `POST /api/stripe/webhook` (public): Stripe's events, signature checked on the raw body
 *   (webhook-route.ts).
 * The owner always comes from the session; ids in bodies (`userId`, `userEmail`) are ignored.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { daysRemaining, isPaid } from '../../engine/auth/profiles.ts';
import { addressKey, admit, LIMITS } from '../../engine/rate-limits.ts';
import {
  BillingErrorBody,
  BillingStatus,
  CancelBody,
  CheckoutBody,
  COUPON_CODES,
  RedeemBody,
} from './api.ts';
import { redeemCoupon } from './coupons.ts';
import { operatorBillingRoutes } from './operator-routes.ts';
import { customDaysProblem } from './plans.ts';
import {
  applySubscriptionState,
  billingDb,
  currentSubscription,
  ensureTrialRecorded,
  findBillingProfile,
  listGrants,
} from './queries.ts';
import { type BillingRouteDeps, checkoutParams } from './stripe.ts';
import { BILLING_ERRORS, COUPON_APPLIED, COUPON_ERRORS } from './texts.ts';
import { reconcile, webhookRoute } from './webhook-route.ts';

const OWNER = { owner: { self: true as const } };

/** A route's error answers: each status code with a {@link BillingErrorBody}. */
function errorBodies<const C extends number>(...codes: C[]): Record<C, typeof BillingErrorBody> {
  return Object.fromEntries(codes.map((c) => [c, BillingErrorBody])) as Record<C, typeof BillingErrorBody>;
}

/** The routes (a Fastify plugin mounted at the root: `prefix: ''`). */
export function billingRoutes(deps: BillingRouteDeps): FastifyPluginAsync {
  return async (app) => {
    await app.register(ownerRoutes(deps));
    await app.register(webhookRoute(deps));
    await app.register(operatorBillingRoutes(deps.ctx));
  };
}

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

function ownerRoutes({ ctx, stripe }: BillingRouteDeps): FastifyPluginAsyncZod {
  const db = billingDb(ctx.db);
  return async (app) => {
    app.get(
      '/api/billing',
      {
        config: OWNER,
        schema: {
          summary: 'The owner’s days, plan, subscription and history (/gestion)',
          description:
            'Issue 11, spec 001 §2 /gestion: days remaining (spec 001 §3), whether the owner counts as paid, the ' +
            'renewing subscription (or one cancelling at period end), what added days (trial, payments, renewals, ' +
            'coupons, operator grants; amounts in EUR cents) and whether this server takes payments. 401 without a session.',
          tags: ['billing'],
          response: { 200: BillingStatus, 401: BillingErrorBody },
        },
      },
      async (req) => {
        const owner = await ctx.requireOwner(req);
        await ensureTrialRecorded(db, owner.id);
        const [profile, history, sub] = await Promise.all([
          findBillingProfile(db, owner.id),
          listGrants(db, owner.id),
          currentSubscription(db, owner.id),
        ]);
        const now = ctx.now();
        const renewing = profile?.stripe_subscription_id ?? null;
        const shown = sub && (sub.id === renewing || sub.cancel_at_period_end) ? sub : null;
        return {
          id: owner.id,
          email: owner.email,
          plan: profile?.plan ?? null,
          expiresAt: iso(profile?.expires_at),
          daysRemaining: daysRemaining(profile, now),
          paid: isPaid(profile, now),
          unlimited: isPaid(profile, now) && !profile?.expires_at,
          subscription: shown
            ? {
                id: shown.id,
                status: shown.status,
                cancelAtPeriodEnd: shown.cancel_at_period_end,
                currentPeriodEnd: iso(shown.current_period_end),
              }
            : renewing
              ? { id: renewing, status: 'active', cancelAtPeriodEnd: false, currentPeriodEnd: null }
              : null,
          history: history.map((g) => ({
            kind: g.kind,
            days: g.days,
            amountCents: g.amount_cents,
            currency: g.currency,
            source: g.source,
            at: new Date(g.created_at).toISOString(),
            expiresAfter: iso(g.expires_after),
          })),
          paymentsEnabled: stripe !== null,
        };
      },
    );

    app.post(
      '/api/create-checkout-session',
      {
        config: OWNER,
        schema: {
          summary: 'Starts a payment: a Stripe Checkout Session for a plan',
          description:
            'Spec 001 §7, §9, issue 11. `monthly_35`: subscription mode, 19,99 € (1999 EUR cents) every 30 days, ' +
            'each paid period adds 35 days. `custom`: payment mode, 0,90 € (90 cents) × `customDays` (a whole ' +
            'number from 1 to 21). The owner is the session’s (in `client_reference_id`; `userId`/`userEmail` in ' +
            'the body are ignored); plan and days go in `metadata`. Answers `{url}` of Stripe’s page. 400 for bad ' +
            'days ("Necesitas al menos 1 día"), 409 when a subscription already renews, 503 when payments are not ' +
            'configured (no STRIPE_SECRET_KEY), 502 "Error iniciando el pago" when Stripe refuses.',
          tags: ['billing'],
          body: CheckoutBody,
          response: {
            200: z.object({ url: z.string() }),
            ...errorBodies(400, 401, 409, 502, 503),
          },
        },
      },
      async (req, reply) => {
        const owner = await ctx.requireOwner(req);
        if (!stripe) return reply.code(503).send({ error: BILLING_ERRORS.paymentsOff, code: 'paymentsOff' });
        const { plan, customDays, lang } = req.body;
        if (plan === 'custom') {
          const problem = customDaysProblem(customDays ?? Number.NaN);
          if (problem) {
            const error = problem === 'tooMany' ? BILLING_ERRORS.tooManyDays : BILLING_ERRORS.tooFewDays;
            return reply.code(400).send({ error, code: problem });
          }
        } else {
          const profile = await findBillingProfile(db, owner.id);
          if (profile?.stripe_subscription_id)
            return reply
              .code(409)
              .send({ error: BILLING_ERRORS.alreadySubscribed, code: 'alreadySubscribed' });
        }
        try {
          const session = await stripe.checkout.sessions.create(
            checkoutParams({
              owner,
              plan,
              ...(customDays !== undefined ? { customDays } : {}),
              ...(lang ? { lang } : {}),
              baseUrl: ctx.publicUrl ?? `${req.protocol}://${req.host}`,
            }),
          );
          if (!session.url) throw new Error('Stripe answered a session without url');
          ctx.log.info({ owner: owner.id, plan, session: session.id }, 'checkout session created');
          return { url: session.url };
        } catch (err) {
          ctx.log.error({ err: stripeErrorSummary(err), owner: owner.id, plan }, 'checkout session failed');
          return reply.code(502).send({ error: BILLING_ERRORS.checkout, code: 'checkout' });
        }
      },
    );

    app.post(
      '/api/cancel-subscription',
      {
        config: OWNER,
        schema: {
          summary: 'Cancels the owner’s renewal at period end',
          description:
            'Spec 001 §7, issue 11: the owner’s own subscription (`user_profiles.stripe_subscription_id`) is set ' +
            'to `cancel_at_period_end`; the days already paid stay. A `subscription_id` that is not the owner’s ' +
            'answers 404 like no subscription. 502 "Error actualizando estado" when Stripe refuses.',
          tags: ['billing'],
          body: CancelBody,
          response: {
            200: z.object({
              ok: z.literal(true),
              cancelAtPeriodEnd: z.boolean(),
              currentPeriodEnd: z.string().nullable(),
            }),
            ...errorBodies(401, 404, 502, 503),
          },
        },
      },
      async (req, reply) => {
        const owner = await ctx.requireOwner(req);
        const profile = await findBillingProfile(db, owner.id);
        const mine = profile?.stripe_subscription_id;
        const asked = req.body?.subscription_id;
        if (!mine || (asked && asked !== mine))
          return reply.code(404).send({ error: BILLING_ERRORS.noSubscription, code: 'noSubscription' });
        if (!stripe) return reply.code(503).send({ error: BILLING_ERRORS.paymentsOff, code: 'paymentsOff' });
        try {
          const sub = await stripe.subscriptions.update(mine, { cancel_at_period_end: true });
          const periodEnd = sub.items?.data?.[0]?.current_period_end ?? null;
          await db.transaction().execute((trx) =>
            applySubscriptionState(trx, {
              id: sub.id,
              userId: owner.id,
              status: sub.status,
              cancelAtPeriodEnd: sub.cancel_at_period_end,
              currentPeriodEnd: periodEnd ? new Date(periodEnd * 1000) : null,
              eventCreated: ctx.now(),
            }),
          );
          ctx.log.info({ owner: owner.id, subscription: sub.id }, 'subscription set to cancel at period end');
          return {
            ok: true as const,
            cancelAtPeriodEnd: sub.cancel_at_period_end,
            currentPeriodEnd: periodEnd ? new Date(periodEnd * 1000).toISOString() : null,
          };
        } catch (err) {
          ctx.log.error({ err: stripeErrorSummary(err), owner: owner.id }, 'cancelling the renewal failed');
          return reply.code(502).send({ error: BILLING_ERRORS.cancel, code: 'cancel' });
        }
      },
    );

    // Issue 11: coupon attempts are limited per owner and per address (engine/rate-limits.ts).
    const limit = async (req: FastifyRequest, reply: FastifyReply) => {
      const checks = [
        { limit: 'couponOwner' as const, key: (await ctx.requireOwner(req)).id },
        { limit: 'couponAddress' as const, key: addressKey(req.ip) },
      ];
      if (!(await admit(ctx.limits, reply, checks)))
        return reply.code(429).send({ error: COUPON_ERRORS.tooMany, code: 'tooMany' });
    };

    app.post(
      '/api/redeem-coupon',
      {
        config: OWNER,
        preHandler: limit,
        schema: {
          summary: 'Redeems a promo coupon for the owner',
          description:
            'Spec 001 §4, §7, issue 11: the code is uppercased; the coupon’s days are added from max(now, expiry). ' +
            'Once per owner per coupon, within its redemptions and its date. Answers `{message}` ("Cupón ' +
            'aplicado. ¡Disfruta de tus días extra!"), or `{error, code}` with code `invalid` (404 "Cupón ' +
            'inválido"), `expired`, `exhausted`, `alreadyRedeemed` (409) or `tooMany` (429 past ' +
            `${LIMITS.couponOwner.max} attempts per owner or ${LIMITS.couponAddress.max} per address ` +
            'in 10 minutes). Session cookie or `Authorization: Bearer`.',
          tags: ['billing'],
          body: RedeemBody,
          response: {
            200: z.object({
              ok: z.literal(true),
              message: z.string(),
              days: z.number().int(),
              expiresAt: z.string().nullable(),
            }),
            401: BillingErrorBody,
            404: BillingErrorBody.extend({ code: z.enum(COUPON_CODES) }),
            409: BillingErrorBody.extend({ code: z.enum(COUPON_CODES) }),
            429: BillingErrorBody,
          },
        },
      },
      async (req, reply) => {
        const owner = await ctx.requireOwner(req);
        const result = await redeemCoupon(db, {
          code: req.body.couponCode,
          userId: owner.id,
          now: ctx.now(),
        });
        if (!result.ok) {
          return reply
            .code(result.reason === 'invalid' ? 404 : 409)
            .send({ error: COUPON_ERRORS[result.reason], code: result.reason });
        }
        ctx.log.info({ owner: owner.id, days: result.days }, 'coupon redeemed');
        await reconcile(ctx, owner.id);
        return {
          ok: true as const,
          message: COUPON_APPLIED,
          days: result.days,
          expiresAt: iso(result.expiresAt),
        };
      },
    );
  };
}

/** A Stripe error without request details (no keys), for the log. */
function stripeErrorSummary(err: unknown): Record<string, unknown> {
  const e = err as { type?: string; code?: string; message?: string; statusCode?: number };
  return { type: e.type, code: e.code, statusCode: e.statusCode, message: e.message };
}
