/**
 * Billing's part of the operator API (issue 26 §6), so operator work needs no downtime, also on the
 * embedded PGlite database where only `charla serve` may open the data dir:
 * - `GET /api/operator/owners`: every owner with days left, status and bots count;
 * - `POST /api/operator/grant-days` `{email, days, note?}`: adds days like `charla owners grant-days`;
 * - `GET /api/operator/coupons`: coupons with their redemptions, newest first;
 * - `POST /api/operator/coupons` `{code, days, maxRedemptions?, validUntil?, createdBy?}`.
 * Auth (engine/http/operator-guard.ts): the operator token header, or an owner with the operator
 * role (cookie requests pass the same Origin checks as owner routes). The CLI's `charla coupons …`
 * and `charla owners grant-days|list` call these when the data dir is busy (cli/remote.ts) and print
 * the same output, so the answers keep the CLI's `--json` shapes.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { daysRemaining, isPaid } from '../../engine/auth/profiles.ts';
import { actorName, operatorGuard } from '../../engine/http/operator-guard.ts';
import type { PluginContext } from '../../engine/registry/index.ts';
import { findOwnerByEmail, listOwnersOverview } from '../../engine/store/queries/owners.ts';
import { createCoupon, listCoupons } from './coupons.ts';
import { billingDb, grantDays } from './queries.ts';

/** Most days one coupon or grant may add (ten years), as the CLI. */
export const MAX_GRANT_DAYS = 3650;

const Days = z.number().int().min(1).max(MAX_GRANT_DAYS);
const ErrorBody = z.object({ error: z.string(), code: z.string().optional() });
/** The route table's entry: no session needed with the token; the guard decides (operator-guard.ts). */
const OPERATOR = { public: true as const };

/** `POST /api/operator/grant-days` body. */
export const GrantDaysBody = z.object({
  email: z.email().max(320),
  days: Days,
  note: z.string().trim().min(1).max(200).optional(),
});

/** `POST /api/operator/coupons` body; the code is stored uppercase. */
export const CreateCouponBody = z.object({
  code: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/),
  days: Days,
  maxRedemptions: Days.nullable().optional(),
  /** ISO time: the last moment it can be redeemed. */
  validUntil: z.iso.datetime({ offset: true }).nullable().optional(),
  createdBy: z.string().trim().min(1).max(100).optional(),
});

/** One owner in the operator's overview. */
export const OperatorOwner = z.object({
  id: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  operator: z.boolean(),
  plan: z.string().nullable(),
  expiresAt: z.string().nullable(),
  daysRemaining: z.number().int(),
  /** `unlimited` (a paid plan without expiry), `active` (days left) or `expired`. */
  status: z.enum(['unlimited', 'active', 'expired']),
  bots: z.number().int(),
  createdAt: z.string(),
});
/** One owner in the operator's overview (`charla owners list` reads it too). */
export type OperatorOwner = z.infer<typeof OperatorOwner>;

const Coupon = z.object({
  id: z.string(),
  code: z.string(),
  days: z.number(),
  max_redemptions: z.number().nullable(),
  redeemed: z.number(),
  valid_until: z.unknown(),
  created_by: z.string(),
  created_at: z.unknown(),
});

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** The routes (mounted at the root with billing's other routes). */
export function operatorBillingRoutes(ctx: PluginContext): FastifyPluginAsyncZod {
  const db = billingDb(ctx.db);
  const guard = operatorGuard(ctx);
  return async (app) => {
    app.get(
      '/api/operator/owners',
      {
        config: OPERATOR,
        schema: {
          summary: 'Every owner with days left, status and bots (operator)',
          description:
            'Issue 26 §6. Operator token (`x-charla-operator`) or an operator’s session. 401 without either, 403 for a wrong token or an owner without the role.',
          tags: ['operator'],
          response: { 200: z.array(OperatorOwner), 401: ErrorBody, 403: ErrorBody, 429: ErrorBody },
        },
      },
      async (req, reply) => {
        await guard(req, reply);
        const now = ctx.now();
        return (await listOwnersOverview(ctx.db)).map((o) => {
          const profile = { plan: o.plan ?? null, expires_at: o.expires_at ?? null };
          const days = daysRemaining(profile, now);
          const paid = isPaid(profile, now);
          return {
            id: o.id,
            email: o.email,
            emailVerified: o.email_verified,
            operator: o.operator,
            plan: profile.plan,
            expiresAt: iso(profile.expires_at),
            daysRemaining: days,
            status: paid && !profile.expires_at ? 'unlimited' : days > 0 ? 'active' : 'expired',
            bots: Number(o.bots ?? 0),
            createdAt: iso(o.created_at) ?? '',
          } as const;
        });
      },
    );

    app.post(
      '/api/operator/grant-days',
      {
        config: OPERATOR,
        schema: {
          summary: 'Adds days to an owner (operator)',
          description:
            'Issue 11, 26 §6: recorded in the owner’s history like a payment, days added from max(now, expiry); the owner’s paused channels reconnect. 404 `{code: "noOwner"}` for an unknown e-mail.',
          tags: ['operator'],
          body: GrantDaysBody,
          response: {
            200: z.object({
              owner: z.string(),
              days: z.number(),
              expiresAt: z.string().nullable(),
              daysRemaining: z.number(),
            }),
            400: ErrorBody,
            401: ErrorBody,
            403: ErrorBody,
            404: ErrorBody,
            429: ErrorBody,
          },
        },
      },
      async (req, reply) => {
        const actor = await guard(req, reply);
        const owner = await findOwnerByEmail(ctx.db, req.body.email);
        if (!owner)
          return reply
            .code(404)
            .send({ error: `No hay ningún dueño con el e-mail ${req.body.email}.`, code: 'noOwner' });
        const now = ctx.now();
        const outcome = await grantDays(db, {
          key: `grant:${randomUUID()}`,
          userId: owner.id,
          kind: 'grant',
          days: req.body.days,
          source: req.body.note ?? 'operator grant',
          now,
        });
        ctx.log.info({ owner: owner.id, days: req.body.days, by: actorName(actor) }, 'operator granted days');
        await ctx
          .reconcileOwner(owner.id)
          .catch((err: unknown) => ctx.log.warn({ err }, 'reconnecting failed'));
        return {
          owner: owner.email,
          days: req.body.days,
          expiresAt: iso(outcome.expiresAt),
          daysRemaining: daysRemaining({ plan: null, expires_at: outcome.expiresAt }, now),
        };
      },
    );

    app.get(
      '/api/operator/coupons',
      {
        config: OPERATOR,
        schema: {
          summary: 'Coupons with their redemptions, newest first (operator)',
          description: 'Issue 11, 26 §6: what `charla coupons list --json` prints.',
          tags: ['operator'],
          response: { 200: z.array(Coupon), 401: ErrorBody, 403: ErrorBody, 429: ErrorBody },
        },
      },
      async (req, reply) => {
        await guard(req, reply);
        return listCoupons(db);
      },
    );

    app.post(
      '/api/operator/coupons',
      {
        config: OPERATOR,
        schema: {
          summary: 'Creates a coupon (operator)',
          description:
            'Issue 11, 26 §6: the code (letters, digits, - and _) is stored uppercase. 201 with the row; 409 `{code: "exists"}` when the code exists.',
          tags: ['operator'],
          body: CreateCouponBody,
          response: {
            201: Coupon,
            400: ErrorBody,
            401: ErrorBody,
            403: ErrorBody,
            409: ErrorBody,
            429: ErrorBody,
          },
        },
      },
      async (req, reply) => {
        const actor = await guard(req, reply);
        const body = req.body;
        const row = await createCoupon(db, {
          code: body.code,
          days: body.days,
          maxRedemptions: body.maxRedemptions ?? null,
          validUntil: body.validUntil ? new Date(body.validUntil) : null,
          createdBy: body.createdBy ?? actorName(actor),
        });
        if (!row)
          return reply
            .code(409)
            .send({ error: `Ya existe un cupón ${body.code.toUpperCase()}.`, code: 'exists' });
        return reply.code(201).send(row);
      },
    );
  };
}
