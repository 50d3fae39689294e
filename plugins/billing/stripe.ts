/**
 * Charla's side of Stripe (issue 11): the settings, the client, and the two calls Charla makes —
 * creating a Checkout Session (https://docs.stripe.com/api/checkout/sessions/create) and cancelling
 * a subscription's renewal at period end (https://docs.stripe.com/api/subscriptions/update). The
 * `stripe` SDK (pinned) speaks the API version it pins (`Stripe.API_VERSION`); webhooks are read in
 * webhook.ts.
 */
import type Stripe from 'stripe';
import { z } from 'zod';
import type { PluginContext } from '../../engine/registry/index.ts';
import { CURRENCY, CUSTOM_PLAN, customTotalCents, MONTHLY_PLAN, type PlanId } from './plans.ts';

/** Billing's settings from the environment (README, Configuration). */
/** An optional setting: blank counts as unset. */
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => v || undefined);

export const BillingEnv = z.object({
  /** Secret API key (`sk_live_…`, `sk_test_…`); without it payments are off, coupons still work. */
  STRIPE_SECRET_KEY: optionalText,
  /** Signing secret of the webhook endpoint (`whsec_…`). */
  STRIPE_WEBHOOK_SECRET: optionalText,
  /**
   * Base URL of the Stripe API (default Stripe's own); tests point it at a local server that
   * speaks Stripe's wire format (`http://127.0.0.1:PORT`).
   */
  STRIPE_API_URL: optionalText.pipe(z.url().optional()),
});
export type BillingEnv = z.infer<typeof BillingEnv>;

/** The subset of the Stripe client Charla uses (DESIGN.md: heavy clients typed by what we use). */
export type StripeClient = Pick<Stripe, 'checkout' | 'subscriptions' | 'webhooks'>;

/**
 * A Stripe client for these settings, or null when `STRIPE_SECRET_KEY` is unset (the SDK is
 * imported then, not at start-up). No retries of
 * failed calls beyond the SDK's idempotent ones (it sends an `Idempotency-Key` on every POST).
 */
export async function createStripe(env: BillingEnv): Promise<StripeClient | null> {
  if (!env.STRIPE_SECRET_KEY) return null;
  const api = env.STRIPE_API_URL ? new URL(env.STRIPE_API_URL) : undefined;
  // The SDK (260 KB) is loaded only when payments are on (issue 25: cold start).
  const { default: StripeSdk } = await import('stripe');
  return new StripeSdk(env.STRIPE_SECRET_KEY, {
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
    ...(api
      ? {
          host: api.hostname,
          port: Number(api.port || (api.protocol === 'https:' ? 443 : 80)),
          protocol: api.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
  });
}

/** Metadata keys Charla sets on sessions and subscriptions (and reads back from events). */
export const META = { owner: 'charla_owner', plan: 'charla_plan', days: 'charla_days' } as const;

/** Stripe Checkout's languages for the interface's (`auto` for the rest). */
const CHECKOUT_LOCALES: Record<string, Stripe.Checkout.SessionCreateParams.Locale> = {
  es: 'es',
  en: 'en',
  fr: 'fr',
  de: 'de',
  it: 'it',
  ru: 'ru',
  hi: 'hi-IN',
};

/** What a checkout is for. */
export interface CheckoutRequest {
  owner: { id: string; email: string };
  plan: PlanId;
  /** Days of the custom plan (validated by the caller: 1 to 21). */
  customDays?: number;
  /** Interface language (`es`, `en`, …) for Stripe's page. */
  lang?: string;
  /** Where Stripe sends the owner back: `<base>/gestion?pago=ok|cancelado`. */
  baseUrl: string;
}

/**
 * The Checkout Session parameters for a plan (pure, so tests can read them):
 * - `monthly_35`: `mode: 'subscription'`, 19,99 € every 30 days (`recurring.interval: 'day'`,
 *   `interval_count: 30`); the subscription carries the owner in its metadata, so every invoice does
 *   (`parent.subscription_details.metadata`);
 * - `custom`: `mode: 'payment'`, 0,90 € × days as one line (`quantity` = days).
 * The owner goes in `client_reference_id`; plan and days in `metadata`.
 */
export function checkoutParams(req: CheckoutRequest): Stripe.Checkout.SessionCreateParams {
  const meta = (days: number) => ({
    [META.owner]: req.owner.id,
    [META.plan]: req.plan,
    [META.days]: String(days),
  });
  const common = {
    client_reference_id: req.owner.id,
    customer_email: req.owner.email,
    success_url: `${req.baseUrl}/gestion?pago=ok&session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${req.baseUrl}/gestion?pago=cancelado`,
    ...(req.lang && CHECKOUT_LOCALES[req.lang] ? { locale: CHECKOUT_LOCALES[req.lang] } : {}),
  };
  if (req.plan === 'monthly_35') {
    return {
      ...common,
      mode: 'subscription',
      metadata: meta(MONTHLY_PLAN.days),
      subscription_data: { metadata: meta(MONTHLY_PLAN.days) },
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: CURRENCY,
            unit_amount: MONTHLY_PLAN.amountCents,
            recurring: { interval: 'day', interval_count: MONTHLY_PLAN.billingDays },
            product_data: { name: `Charla: ${MONTHLY_PLAN.days} días cada ${MONTHLY_PLAN.billingDays}` },
          },
        },
      ],
    };
  }
  const days = req.customDays ?? CUSTOM_PLAN.minDays;
  return {
    ...common,
    mode: 'payment',
    metadata: meta(days),
    payment_intent_data: { metadata: meta(days) },
    line_items: [
      {
        quantity: days,
        price_data: {
          currency: CURRENCY,
          unit_amount: CUSTOM_PLAN.dayCents,
          product_data: { name: 'Charla: 1 día de uso' },
        },
      },
    ],
  };
}

/** The total a checkout charges, EUR cents (for logs and checks). */
export function checkoutTotalCents(plan: PlanId, customDays?: number): number {
  return plan === 'monthly_35'
    ? MONTHLY_PLAN.amountCents
    : customTotalCents(customDays ?? CUSTOM_PLAN.minDays);
}

/** Everything billing's routes need (routes.ts, webhook-route.ts). */
export interface BillingRouteDeps {
  ctx: PluginContext;
  env: BillingEnv;
  stripe: StripeClient | null;
}
