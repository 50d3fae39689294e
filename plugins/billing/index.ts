/**
 * Billing (issue 11; spec 001 §2 /gestion, §4 Subscription and Coupon, §7, §8, §9): days of access
 * bought with Stripe Checkout (the monthly plan as a subscription, custom days as one payment),
 * promo coupons, an operator's grants (`charla coupons …`, `charla owners grant-days`), and the
 * history of what added days. The first feature plugin: everything goes through the registry —
 * its own tables (migrations.ts), owner routes at the spec's `/api/...` paths (routes.ts), and
 * `reconcileOwner` so an owner's paused channels come back as soon as days are added.
 *
 * Without `STRIPE_SECRET_KEY` payments are off (the /gestion plan cards say so); coupons and
 * grants still work.
 */
import { z } from 'zod';
import { definePlugin, type FeaturePlugin } from '../../engine/registry/index.ts';
import { migrations } from './migrations.ts';
import { billingRoutes } from './routes.ts';
import { BillingEnv, createStripe, type StripeClient } from './stripe.ts';

/** Options of {@link createBillingPlugin} (tests pass a Stripe client of their own). */
export interface BillingPluginOptions {
  /** Overrides the client built from the environment (null: payments off). */
  stripe?: StripeClient | null;
}

/** Builds the billing plugin. */
export function createBillingPlugin(options: BillingPluginOptions = {}): FeaturePlugin<never> {
  return definePlugin({
    id: 'billing',
    optionsSchema: z.object({}),
    migrations,
    setup(ctx) {
      const parsed = BillingEnv.safeParse(ctx.env);
      if (!parsed.success) {
        ctx.log.error(
          { issues: parsed.error.issues.map((i) => i.path.join('.')) },
          'billing settings invalid; payments off',
        );
      }
      const env: BillingEnv = parsed.success
        ? parsed.data
        : { STRIPE_SECRET_KEY: undefined, STRIPE_WEBHOOK_SECRET: undefined };
      const stripe = options.stripe !== undefined ? options.stripe : createStripe(env);
      if (!stripe) ctx.log.info('STRIPE_SECRET_KEY is not set: payments are off; coupons and grants work');
      else if (!env.STRIPE_WEBHOOK_SECRET)
        ctx.log.warn('STRIPE_WEBHOOK_SECRET is not set: payments cannot add days until it is');
      return { routes: { prefix: '', plugin: billingRoutes({ ctx, env, stripe }) } };
    },
  }) as FeaturePlugin<never>;
}

/** The registered billing plugin (plugins/index.ts). */
export const billing = createBillingPlugin();
