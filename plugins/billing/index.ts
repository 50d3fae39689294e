import { AppError } from '../../engine/errors.ts';
import { definePlugin, type FeaturePlugin } from '../../engine/registry/index.ts';
import { migrations } from './migrations.ts';
import { billingDb, currentSubscription, ownerBillingData } from './queries.ts';
import { billingRoutes } from './routes.ts';
import { BillingEnv, createStripe, type StripeClient } from './stripe.ts';
import { BILLING_ERRORS } from './texts.ts';

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
      const db = billingDb(ctx.db);
      return {
        routes: { prefix: '', plugin: billingRoutes({ ctx, env, stripe }) },
        ownerData: {
          // Issue 26 §5: the history of days, subscriptions and coupons in the owner's export.
          export: (ownerId) => ownerBillingData(db, ownerId),
          // A deleted account is charged no more: its renewing subscription ends now at Stripe
          // (a failure stops the deletion, so the owner can try again).
          async beforeDelete(ownerId) {
            const sub = await currentSubscription(db, ownerId);
            if (!sub || !stripe) return;
            try {
              await stripe.subscriptions.cancel(sub.id);
            } catch (err) {
              // Stripe no longer has it: nothing left to charge.
              if ((err as { statusCode?: number }).statusCode === 404) return;
              ctx.log.error(
                { error: (err as Error).message, owner: ownerId },
                'cancelling on deletion failed',
              );
              throw new AppError('UPSTREAM', BILLING_ERRORS.cancel);
            }
            ctx.log.info({ owner: ownerId, subscription: sub.id }, 'subscription cancelled: account deleted');
          },
        },
      };
    },
  });
}

/** The registered billing plugin (plugins/index.ts). */
export const billing = createBillingPlugin();
