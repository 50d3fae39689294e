/**
 * The billing API's contract (issue 11, spec 001 §7): zod schemas of the bodies and answers, shared
 * by the routes (validation, OpenAPI) and the dashboard (types), and the plans and their prices
 * (plans.ts) as the shared constants other plugins read (the site's pricing, its assistant; issue 25
 * §5: a plugin reaches another only through its api.ts). Browser-safe: zod only.
 */
import { z } from 'zod';
import { PLAN_IDS } from './plans.ts';

export {
  CURRENCY,
  CUSTOM_PLAN,
  type CustomDaysProblem,
  customDaysProblem,
  customTotalCents,
  formatEur,
  MONTHLY_PLAN,
  monthlyCentsPerDay,
  PLAN_IDS,
  type PlanId,
} from './plans.ts';

/** `POST /api/create-checkout-session` body (spec 001 §7). `userId`/`userEmail` are ignored: the owner is the session's. */
export const CheckoutBody = z.object({
  plan: z.enum(PLAN_IDS),
  /** Whole days for `custom` (1 to 21). */
  customDays: z.number().optional(),
  /** Interface language for Stripe's page (`es`, `en`, …). */
  lang: z.string().max(10).optional(),
  userId: z.unknown().optional(),
  userEmail: z.unknown().optional(),
});

/** An error answer; `code` lets the dashboard say it in the owner's language. */
export const BillingErrorBody = z.object({ error: z.string(), code: z.string().optional() });

/** `POST /api/cancel-subscription` body (spec 001 §7: `subscription_id`, optional here). */
export const CancelBody = z.object({ subscription_id: z.string().max(255).optional() }).default({});

/** `POST /api/redeem-coupon` body (spec 001 §7). `userId` is ignored: the owner is the session's. */
export const RedeemBody = z.object({
  couponCode: z.string().trim().min(1).max(64),
  userId: z.unknown().optional(),
});

/** Coupon refusal codes (texts.ts `COUPON_ERRORS`). */
export const COUPON_CODES = ['invalid', 'expired', 'exhausted', 'alreadyRedeemed', 'tooMany'] as const;

/** One line of the history of what added days. */
export const HistoryItem = z.object({
  kind: z.enum(['trial', 'checkout', 'renewal', 'coupon', 'grant']),
  days: z.number().int(),
  /** EUR cents paid, or null. */
  amountCents: z.number().int().nullable(),
  currency: z.string().nullable(),
  /** Plan id, coupon code or operator note. */
  source: z.string().nullable(),
  /** ISO time. */
  at: z.string(),
  /** ISO expiry after it. */
  expiresAfter: z.string().nullable(),
});

/** `GET /api/billing`: everything /gestion shows. */
export const BillingStatus = z.object({
  id: z.string(),
  email: z.string(),
  plan: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** Spec 001 §3: rounded up, never below 0. */
  daysRemaining: z.number().int().min(0),
  /** Spec 001 §4: premium/monthly plan or a future expiry. */
  paid: z.boolean(),
  /** Paid with no expiry (a premium profile, or CHARLA_TRIAL_DAYS=0): days do not run out. */
  unlimited: z.boolean(),
  /** The renewing subscription (`user_profiles.stripe_subscription_id`), or one cancelling at period end. */
  subscription: z
    .object({
      id: z.string(),
      status: z.string(),
      cancelAtPeriodEnd: z.boolean(),
      currentPeriodEnd: z.string().nullable(),
    })
    .nullable(),
  history: z.array(HistoryItem),
  /** Whether this server takes payments (STRIPE_SECRET_KEY set). */
  paymentsEnabled: z.boolean(),
});
export type BillingStatus = z.infer<typeof BillingStatus>;
export type HistoryItem = z.infer<typeof HistoryItem>;
