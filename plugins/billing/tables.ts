/**
 * Billing's own tables (created by migrations.ts) as Kysely types. `user_profiles` stays the
 * engine's table (spec 001 §3: plan, expires_at, stripe_subscription_id); billing reads and updates
 * it through its queries.ts.
 */
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** What added days to an owner (the /gestion history). */
export type GrantKind = 'trial' | 'checkout' | 'renewal' | 'coupon' | 'grant';

/**
 * One addition of days, unique by `key`: `checkout:<Checkout Session id>` for a one-off payment,
 * `invoice:<invoice id>` for each paid subscription period (the first one included),
 * `coupon:<coupon id>:<owner id>`, `grant:<uuid>` for an operator's grant, `trial:<owner id>`.
 * Inserting the row and moving `user_profiles.expires_at` happen in one transaction, so a key
 * grants once whatever delivers it (a webhook three times, two events for one payment).
 */
export interface BillingGrantsTable {
  id: Generated<string>;
  key: string;
  user_id: string;
  kind: GrantKind;
  days: number;
  /** What was paid, EUR cents (null for the trial, coupons and grants). */
  amount_cents: number | null;
  currency: string | null;
  /** The plan bought (`monthly_35`, `custom`), the coupon code, or the operator's note. */
  source: string | null;
  /** The owner's expiry after this grant. */
  expires_after: Timestamp | null;
  created_at: Timestamp;
}

/** Every Stripe event id received and verified (exactly once: a replay does nothing). */
export interface BillingEventsTable {
  id: string;
  type: string;
  /** Stripe's `created` of the event. */
  created: Timestamp;
  received_at: Timestamp;
  /** What Charla did with it (`granted 35 days`, `ignored: unpaid`, …), for operators. */
  outcome: string;
}

/** A subscription as Charla last heard of it (checkout, invoices, subscription events). */
export interface BillingSubscriptionsTable {
  id: string;
  user_id: string;
  /** Stripe's status: `active`, `past_due`, `canceled`, `incomplete_expired`, … */
  status: string;
  cancel_at_period_end: boolean;
  /** End of the paid period, when known. */
  current_period_end: Timestamp | null;
  /** Stripe `created` of the newest event applied (older events do not overwrite newer state). */
  event_created: Timestamp;
  updated_at: Timestamp;
}

/** A promo coupon an operator created (`charla coupons create`). */
export interface BillingCouponsTable {
  id: Generated<string>;
  /** Uppercase code (spec 001 §4: the code is uppercased). */
  code: string;
  days: number;
  /** Total redemptions allowed (null: unlimited). */
  max_redemptions: number | null;
  /** Redemptions so far (bounded by `max_redemptions` in the same statement that counts one). */
  redeemed: Generated<number>;
  /** Last moment it can be redeemed (null: no end). */
  valid_until: Timestamp | null;
  /** Who created it (an operator's name or e-mail, `cli` by default). */
  created_by: string;
  created_at: Timestamp;
}

/** One owner's redemption of one coupon: unique, so two parallel redemptions grant once. */
export interface BillingCouponRedemptionsTable {
  coupon_id: string;
  user_id: string;
  created_at: Timestamp;
}

/** Billing's tables, for `ctx.db.withTables<BillingTables>()`. */
export type BillingTables = {
  billing_grants: BillingGrantsTable;
  billing_events: BillingEventsTable;
  billing_subscriptions: BillingSubscriptionsTable;
  billing_coupons: BillingCouponsTable;
  billing_coupon_redemptions: BillingCouponRedemptionsTable;
};
