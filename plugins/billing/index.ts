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
export function createBillingPlugin(options: BillingPluginOptions = {}): FeaturePlugin {
  return definePlugin({
    id: 'billing',
    envSchema: BillingEnv,
    migrations,
    async setup(ctx) {
      const env = ctx.settings;
      const stripe = options.stripe !== undefined ? options.stripe : await createStripe(env);
      if (!stripe) ctx.log.info('STRIPE_SECRET_KEY is not set: payments are off; coupons and grants work');
      else if (!env.STRIPE_WEBHOOK_SECRET)
        ctx.log.warn('STRIPE_WEBHOOK_SECRET is not set: payments cannot add days until it is');
      return { routes: { prefix: '', plugin: billingRoutes({ ctx, env, stripe }) } };
    },
  });
}

/** The registered billing plugin (plugins/index.ts). */
export const billing = createBillingPlugin();
